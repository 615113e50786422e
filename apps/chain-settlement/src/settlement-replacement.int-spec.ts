import { parseUnits, Transaction, Wallet } from 'ethers';

import { AnvilHandle, startAnvil } from '@onramp/chain';
import { Topics } from '@onramp/contracts';
import { waitFor } from '@onramp/testing';
import { SettlementWorker } from '@onramp/settlement-feature';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { scrapeMetrics } from './testing/metrics-scrape';
import { SettlementHarness, startSettlementHarness, TransactionRow } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

// On an anvil of our own with automatic mining off: the suite decides when (and whether) blocks
// are mined, so a transaction can be left stuck in the mempool, and confirmations counted.
describe('chain-settlement: stuck transactions and confirmations (integration, own anvil)', () => {
  const STUCK_AFTER_SECONDS = 2;
  const CONFIRMATIONS = 3;
  let anvil: AnvilHandle;
  let chain: TestChain;
  let hotWallet: Wallet;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  const mine = (blocks = 1) => chain.provider.send('anvil_mine', [`0x${blocks.toString(16)}`]);
  const receiptsOf = async (txs: TransactionRow[]) =>
    Promise.all(txs.map((tx) => chain.provider.getTransactionReceipt(tx.tx_hash)));
  // At least `n` transactions signed for the order, the last of them already sent to the node.
  const sentTransactions = (orderUuid: string, n: number) =>
    waitFor(
      async () => {
        const txs = await t.transactions(orderUuid);
        return txs.length >= n && txs[txs.length - 1]?.first_sent_at ? txs : undefined;
      },
      { timeoutMs: 30_000, description: `${n} sent transactions for ${orderUuid}` },
    );

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = await setUpTestChain(anvil.rpcUrl);
    hotWallet = await chain.newFundedWallet(parseUnits('1000000', 6));
    await chain.provider.send('evm_setAutomine', [false]);
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({
      groupId: h.groupId,
      env: {
        ...chain.settlementEnv(hotWallet.privateKey),
        SETTLEMENT_STUCK_AFTER_SECONDS: String(STUCK_AFTER_SECONDS),
        CHAIN_CONFIRMATIONS: String(CONFIRMATIONS),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
    await anvil?.stop();
  });

  it(`waits for ${CONFIRMATIONS} confirmations before reporting a transfer`, async () => {
    const data = h.payment({ payedAmount: '12' });
    await h.confirm(data);
    const [tx] = await sentTransactions(data.orderUuid, 1);
    await mine(); // at once: well before the transaction counts as stuck

    const receipt = await chain.provider.getTransactionReceipt(tx?.tx_hash as string);
    expect(receipt?.status).toBe(1);
    const seen = await waitFor(
      async () => {
        const row = await t.settlement(data.orderUuid);
        return row?.block_number ? row : undefined;
      },
      { description: 'receipt noticed' },
    );
    expect(seen).toMatchObject({ state: 'BROADCAST', block_number: String(receipt?.blockNumber) });
    await mine(CONFIRMATIONS - 2); // one short
    await new Promise((r) => setTimeout(r, 1000));
    expect((await t.settlement(data.orderUuid))?.state).toBe('BROADCAST');
    expect(h.collector.forOrder(Topics.TransferSucceeded, data.orderUuid)).toHaveLength(0);

    await mine();
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    expect(event.data.transactionHash).toBe(tx?.tx_hash);
    expect(await t.transactions(data.orderUuid)).toHaveLength(1); // never replaced
  });

  it('replaces a stuck transaction with the same nonce and higher fees, and reports the one mined', async () => {
    const data = h.payment({ payedAmount: '20' });
    await h.confirm(data);
    await sentTransactions(data.orderUuid, 2); // nothing mined: the first one got stuck and was replaced
    await mine(CONFIRMATIONS);

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    const txs = await t.transactions(data.orderUuid);
    expect(txs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(txs.map((tx) => tx.nonce)).size).toBe(1);
    for (let i = 1; i < txs.length; i++) {
      const [before, after] = [Transaction.from(txs[i - 1]?.raw_tx), Transaction.from(txs[i]?.raw_tx)];
      expect((after.maxFeePerGas as bigint) * 1000n).toBeGreaterThanOrEqual(
        (before.maxFeePerGas as bigint) * 1125n,
      );
      expect((after.maxPriorityFeePerGas as bigint) * 1000n).toBeGreaterThanOrEqual(
        (before.maxPriorityFeePerGas as bigint) * 1125n,
      );
      expect([after.to, after.data, after.nonce]).toEqual([before.to, before.data, before.nonce]);
    }
    const receipts = await receiptsOf(txs);
    const mined = txs.filter((_, i) => receipts[i] !== null);
    expect(mined).toHaveLength(1); // one nonce, one transaction on chain
    expect(mined[0]?.tx_hash).not.toBe(txs[0]?.tx_hash); // a replacement, the original was evicted
    expect(event.data.transactionHash).toBe(mined[0]?.tx_hash);
    expect(await t.settlement(data.orderUuid)).toMatchObject({
      state: 'CONFIRMED',
      tx_hash: mined[0]?.tx_hash,
    });
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([
      { txHash: mined[0]?.tx_hash, value: 21_384_000n },
    ]);
    const metrics = await scrapeMetrics(t.app);
    expect(Number(metrics.get('settlement_transaction_replacements_total'))).toBeGreaterThanOrEqual(1);
  });

  it('confirms with the original transaction when it, not its replacement, is the one mined', async () => {
    const data = h.payment({ payedAmount: '30' });
    await h.confirm(data);
    await sentTransactions(data.orderUuid, 2);
    const worker = t.app.get(SettlementWorker);
    await worker.stop();
    // Another node still had the original and a miner picked it: here, the replacement leaves the
    // mempool and the original bytes come back.
    const txs = await t.transactions(data.orderUuid);
    for (const tx of txs) await chain.provider.send('anvil_dropTransaction', [tx.tx_hash]);
    const original = txs[0] as TransactionRow;
    await chain.provider.broadcastTransaction(original.raw_tx);
    await mine(CONFIRMATIONS);
    worker.start();

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    expect(event.data.transactionHash).toBe(original.tx_hash);
    const all = await t.transactions(data.orderUuid);
    const receipts = await receiptsOf(all);
    expect(receipts.filter((r) => r !== null).map((r) => r?.hash)).toEqual([original.tx_hash]);
    expect(await t.settlementIn(data.orderUuid, ['CONFIRMED'])).toMatchObject({
      tx_hash: original.tx_hash,
      raw_tx: original.raw_tx,
    });
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([
      { txHash: original.tx_hash, value: 32_076_000n },
    ]);
  });
});
