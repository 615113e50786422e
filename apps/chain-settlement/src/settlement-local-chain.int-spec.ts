import { parseUnits, Wallet } from 'ethers';

import { AnvilHandle, startAnvil } from '@onramp/chain';
import { Topics } from '@onramp/contracts';
import { POOL_STALL_AFTER_MS } from '@onramp/settlement-domain';
import { waitFor } from '@onramp/testing';

import {
  ChainSettlementTestApp,
  confirmAsOneBatch,
  startChainSettlementTestApp,
} from './testing/chain-settlement-test-app';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// What settlement does only on the local development chain (chain id 31337), on an anvil of our own:
// a batch's higher nonces sent before its lowest, and the stall check for anvil's pool race
// (@onramp/settlement-domain, pool-stall.ts).
describe('chain-settlement on the local development chain (integration, own anvil)', () => {
  let anvil: AnvilHandle;
  let chain: TestChain;
  let hotWallet: Wallet;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  const setNonce = (nonce: number) =>
    chain.provider.send('anvil_setNonce', [hotWallet.address, `0x${nonce.toString(16)}`]);
  const nonceOf = (tag: 'latest' | 'pending') => chain.provider.getTransactionCount(hotWallet.address, tag);
  const sentTransactions = (orderUuid: string) =>
    waitFor(
      async () => {
        const txs = await t.transactions(orderUuid);
        return txs[0]?.first_sent_at ? txs : undefined;
      },
      { timeoutMs: 30_000, description: `a sent transaction for ${orderUuid}` },
    );

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = await setUpTestChain(anvil.rpcUrl);
    hotWallet = await chain.newFundedWallet(parseUnits('1000000', 6));
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({
      groupId: h.groupId,
      env: chain.settlementEnv(hotWallet.privateKey),
    });
    // a first payout, so the signer has a nonce below the one the race is made with
    const first = h.payment({ payedAmount: '10' });
    await h.confirm(first);
    await h.collector.waitFor(Topics.TransferSucceeded, first.orderUuid);
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
    await anvil?.stop();
  });

  it('sends a batch of transfers higher nonces first, so that the node mines them together', async () => {
    const payments = ['11', '12', '13', '14', '15'].map((payedAmount) => h.payment({ payedAmount }));
    await confirmAsOneBatch(t, h, payments);
    const events = await Promise.all(
      payments.map((data) => h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid)),
    );
    const receipts = await Promise.all(
      events.map((e) => chain.provider.getTransactionReceipt(e.data.transactionHash)),
    );
    // Sent one by one, each would have been mined in a block of its own as it arrived.
    expect(new Set(receipts.map((r) => r?.blockNumber)).size).toBe(1);
    const nonces = await Promise.all(
      payments.map(async (data) => (await t.transactions(data.orderUuid))[0]?.nonce),
    );
    expect(new Set(nonces).size).toBe(5);
  });

  // The race made on purpose: while a transfer arrives, the node is told the signer's nonce is one
  // lower, so it files the transfer as waiting for a predecessor; then the nonce is put back, and that
  // predecessor never comes. The stuck path keeps its default minute: only the stall check can get the
  // transfer out sooner.
  it('replaces a transfer the node holds outside its ready queue within seconds, and reports the successor', async () => {
    const nonce = await nonceOf('latest');
    await setNonce(nonce - 1);
    const data = h.payment({ payedAmount: '20' });
    await h.confirm(data);
    const [held] = await sentTransactions(data.orderUuid);
    expect(held?.nonce).toBe(String(nonce));

    // While a lower nonce is missing (not a transfer of ours), the transfer is not replaced.
    await sleep(POOL_STALL_AFTER_MS + 1_500);
    expect(await t.transactions(data.orderUuid)).toHaveLength(1);

    await setNonce(nonce);
    // the race's state: taken, not mined, not counted as pending; unless the worker's stall check
    // came first (a busy machine: a rehearsal of CI saw it once), whose successor, stored before it
    // is sent, is then what the node counts
    expect(await nonceOf('latest')).toBe(nonce);
    if ((await nonceOf('pending')) !== nonce) expect(await t.transactions(data.orderUuid)).toHaveLength(2);
    expect(await chain.provider.getTransactionReceipt(held?.tx_hash as string)).toBeNull();

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 20_000);
    const txs = await t.transactions(data.orderUuid);
    expect(txs.map((tx) => tx.nonce)).toEqual([String(nonce), String(nonce)]);
    expect(event.data.transactionHash).toBe(txs[1]?.tx_hash);
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([
      { txHash: txs[1]?.tx_hash, value: 21_384_000n },
    ]);
  });

  it('leaves a transfer alone that is ready and only waits for a block', async () => {
    await chain.provider.send('evm_setAutomine', [false]);
    try {
      const data = h.payment({ payedAmount: '30' });
      await h.confirm(data);
      const [sent] = await sentTransactions(data.orderUuid);
      await sleep(2 * POOL_STALL_AFTER_MS + 1_000);
      expect(await nonceOf('pending')).toBe(Number(sent?.nonce) + 1);
      expect(await t.transactions(data.orderUuid)).toHaveLength(1);

      await chain.provider.send('anvil_mine', ['0x1']);
      const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
      expect(event.data.transactionHash).toBe(sent?.tx_hash);
    } finally {
      await chain.provider.send('evm_setAutomine', [true]);
    }
  });
});
