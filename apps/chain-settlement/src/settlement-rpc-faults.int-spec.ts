import { parseUnits, Transaction, Wallet } from 'ethers';

import { AnvilHandle, startAnvil } from '@onramp/chain';
import { Topics } from '@onramp/contracts';
import { RpcFaultProxy, startRpcFaultProxy, waitFor } from '@onramp/testing';
import { SettlementWorker, SignPendingStep } from '@onramp/settlement-feature';

import {
  ChainSettlementTestApp,
  confirmAsOneBatch,
  heldSigner,
  startChainSettlementTestApp,
} from './testing/chain-settlement-test-app';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

// The service talks to an anvil of our own through a proxy that injects network faults: a node that
// stops answering, a send whose answer is lost, a node whose receipts lag behind its nonces.
describe('chain-settlement: RPC faults are retried, never double-paid (integration, own anvil)', () => {
  const RPC_TIMEOUT_MS = 400;
  let anvil: AnvilHandle;
  let chain: TestChain;
  let proxy: RpcFaultProxy;
  let hotWallet: Wallet;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  const lastErrorMatching = (orderUuid: string, pattern: RegExp) =>
    waitFor(
      async () => {
        const row = await t.settlement(orderUuid);
        return row?.last_error && pattern.test(row.last_error) ? row : undefined;
      },
      { timeoutMs: 20_000, description: `last_error of ${orderUuid} matching ${pattern}` },
    );

  beforeAll(async () => {
    anvil = await startAnvil();
    chain = await setUpTestChain(anvil.rpcUrl);
    hotWallet = await chain.newFundedWallet(parseUnits('1000000', 6));
    proxy = await startRpcFaultProxy(anvil.rpcUrl);
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({
      groupId: h.groupId,
      env: {
        ...chain.settlementEnv(hotWallet.privateKey),
        RPC_URL: proxy.url,
        RPC_TIMEOUT_MS: String(RPC_TIMEOUT_MS),
      },
    });
    // One payout through the healthy proxy first: the worker has checked the chain id and created
    // its signer row, so the faults below meet the settlement steps themselves.
    const warmUp = h.payment({ payedAmount: '1' });
    await h.confirm(warmUp);
    await h.collector.waitFor(Topics.TransferSucceeded, warmUp.orderUuid, 60_000);
  });

  afterEach(async () => {
    proxy.fault = 'pass';
    proxy.minGas = 0n;
    proxy.gasNonces = undefined;
    await chain.provider.send('evm_setAutomine', [true]);
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    await proxy?.close();
    chain?.close();
    await anvil?.stop();
  });

  it('keeps the settlement where it is while the node does not answer, and pays once it does', async () => {
    proxy.fault = 'hang';
    const data = h.payment({ payedAmount: '5' });
    await h.confirm(data);
    const held = await lastErrorMatching(data.orderUuid, /timed out after 400 ms/);
    expect(held.state).toBe('PENDING');
    expect(await t.transactions(data.orderUuid)).toHaveLength(0);

    proxy.fault = 'pass';
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000);
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([
      { txHash: event.data.transactionHash, value: 5_346_000n },
    ]);
  });

  it('takes "already known" after a send whose answer was lost as sent, and pays once', async () => {
    await chain.provider.send('evm_setAutomine', [false]);
    proxy.fault = 'lose-send-answers';
    const data = h.payment({ payedAmount: '6' });
    await h.confirm(data);
    const timedOut = await lastErrorMatching(data.orderUuid, /eth_sendRawTransaction timed out/);
    expect(timedOut.state).toBe('SIGNED'); // the send's fate is unknown: no state change
    expect(await chain.provider.getTransaction(timedOut.tx_hash as string)).not.toBeNull(); // it did arrive

    proxy.fault = 'pass';
    const known = await t.settlementIn(data.orderUuid, ['BROADCAST'], 20_000);
    expect(known).toMatchObject({ tx_hash: timedOut.tx_hash, last_error: null });
    expect(proxy.sendAnswers).toContain('transaction already imported');
    await chain.provider.send('evm_mine', []);

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    expect(event.data.transactionHash).toBe(timedOut.tx_hash);
    expect(await t.transactions(data.orderUuid)).toHaveLength(1);
    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
  });

  it('takes "nonce too low" as a clue: finds the receipt by hash instead of failing or re-signing', async () => {
    const worker = t.app.get(SettlementWorker);
    await worker.stop();
    const data = h.payment({ payedAmount: '7' });
    await h.confirm(data);
    await t.settlementIn(data.orderUuid, ['PENDING']);
    const skip = new Set<string>();
    while ((await t.app.get(SignPendingStep).runOnce(heldSigner(t), skip)).kind !== 'idle') {
      // sign everything due
    }
    const signed = await t.settlementIn(data.orderUuid, ['SIGNED']);
    // The bytes reached a node and were mined, but the node we ask lags: no receipt yet.
    await chain.provider.broadcastTransaction(signed.raw_tx as string);
    proxy.fault = 'hide-receipts-until-send';
    proxy.sendAnswers.length = 0;
    worker.start();

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    expect(proxy.sendAnswers[0]).toMatch(/nonce too low/);
    expect(event.data.transactionHash).toBe(signed.tx_hash);
    expect(await t.settlement(data.orderUuid)).toMatchObject({
      state: 'CONFIRMED',
      last_error: null,
    });
    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
  });
  it('signs the same nonce again with more gas after "intrinsic gas too low", instead of retrying forever', async () => {
    proxy.fault = 'intrinsic-gas';
    proxy.minGas = 150_000n; // the L1 data cost of an L2, say: more than the estimate plus buffer
    proxy.sendAnswers.length = 0;
    const data = h.payment({ payedAmount: '8' });
    await h.confirm(data);

    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000);
    expect(proxy.sendAnswers[0]).toMatch(/^intrinsic gas too low: have \d+, want 150000$/);
    const txs = await t.transactions(data.orderUuid);
    expect(txs).toHaveLength(2);
    const [first, second] = txs.map((tx) => Transaction.from(tx.raw_tx));
    expect(first?.nonce).toBe(second?.nonce); // the same nonce: at most one of them can ever be mined
    expect(first?.gasLimit).toBeLessThan(150_000n); // estimated, with the buffer
    expect(second?.gasLimit).toBe(187_500n); // what the node wants, plus the 25 % buffer
    expect(event.data.transactionHash).toBe(txs[1]?.tx_hash);
    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
  });

  // On the local chain a batch's higher nonces go out before its lowest (DriveInFlightBatchStep).
  it('keeps the higher nonces the node took when it refuses the lowest, and pays each once that nonce is re-signed', async () => {
    const lowest = await chain.provider.getTransactionCount(hotWallet.address, 'latest');
    const payments = ['9', '10', '11'].map((payedAmount) => h.payment({ payedAmount }));
    await confirmAsOneBatch(t, h, payments, () => {
      proxy.fault = 'intrinsic-gas';
      proxy.minGas = 150_000n;
      proxy.gasNonces = [lowest];
      proxy.sendAnswers.length = 0;
    });

    const events = await Promise.all(
      payments.map((data) => h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000)),
    );
    // in nonce order (the settlements were signed in the order their rows were created)
    const byNonce = (await Promise.all(payments.map((data) => t.transactions(data.orderUuid)))).sort(
      (a, b) => Number(a[0]?.nonce) - Number(b[0]?.nonce),
    );
    expect(byNonce.map((list) => list.map((tx) => Number(tx.nonce)))).toEqual([
      [lowest, lowest], // refused, then signed again with more gas
      [lowest + 1],
      [lowest + 2],
    ]);
    // the two higher nonces went first and were taken; then the lowest, refused
    expect(proxy.sendAnswers.slice(0, 3)).toEqual([
      'ok',
      'ok',
      expect.stringMatching(/^intrinsic gas too low/),
    ]);
    const [refused, resigned] = byNonce[0] ?? [];
    expect(refused?.first_sent_at).toBeNull();
    // the higher two were taken while the lowest was refused, and waited for its successor
    for (const list of byNonce.slice(1))
      expect(list[0]?.first_sent_at?.getTime()).toBeLessThanOrEqual(resigned?.first_sent_at?.getTime() ?? 0);
    const mined = byNonce.map((list) => list.at(-1)?.tx_hash);
    expect(events.map((e) => e.data.transactionHash).sort()).toEqual([...mined].sort());
    for (const data of payments) expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
  });

  it('stops at SETTLEMENT_GAS_CEILING with a reason an operator can act on, and pays once the node takes it', async () => {
    proxy.fault = 'intrinsic-gas';
    proxy.minGas = 600_000n; // above the 500,000 ceiling
    const data = h.payment({ payedAmount: '9' });
    await h.confirm(data);
    const held = await lastErrorMatching(
      data.orderUuid,
      /SETTLEMENT_GAS_CEILING 500000 allows no more: operator action needed/,
    );
    expect(held.state).toBe('SIGNED');
    const txs = await t.transactions(data.orderUuid);
    expect(txs.map((tx) => Transaction.from(tx.raw_tx).gasLimit).at(-1)).toBe(500_000n);

    proxy.fault = 'pass'; // say, the L1 price came down
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000);
    expect(event.data.transactionHash).toBe(txs.at(-1)?.tx_hash);
    expect(await t.transactions(data.orderUuid)).toHaveLength(txs.length);
    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
  });
});
