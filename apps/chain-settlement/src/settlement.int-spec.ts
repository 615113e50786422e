import { randomUUID } from 'node:crypto';

import { parseUnits, Wallet } from 'ethers';

import { Topics } from '@onramp/contracts';
import { usdcToString } from '@onramp/money';
import { produce, waitFor } from '@onramp/testing';
import { SettlementWorker, SignPendingStep } from '@onramp/settlement-feature';

import {
  ChainSettlementTestApp,
  heldSigner,
  startChainSettlementTestApp,
} from './testing/chain-settlement-test-app';
import { scrapeMetrics } from './testing/metrics-scrape';
import { SettlementHarness, SettlementRow, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

describe('chain-settlement: exactly one on-chain payout per order (integration)', () => {
  let chain: TestChain;
  let hotWallet: Wallet;
  let env: Record<string, string>;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;
  const sanctionedAddress = Wallet.createRandom().address;

  beforeAll(async () => {
    chain = await setUpTestChain();
    hotWallet = await chain.newFundedWallet(); // ETH for gas, no USDC yet
    env = {
      ...chain.settlementEnv(hotWallet.privateKey),
      CHAIN_CONFIRMATIONS: '1',
      SETTLEMENT_SANCTIONED_ADDRESSES: sanctionedAddress,
    };
    h = await startSettlementHarness();
    t = await startChainSettlementTestApp({ env, groupId: h.groupId });
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
  });

  it('holds the order while the hot wallet is underfunded and pays once it is funded', async () => {
    const data = h.payment({ payedAmount: '50' });
    await h.confirm(data);
    const held = await t.settlementIn(data.orderUuid, ['PENDING']);
    await waitFor(
      async () => (await t.settlement(data.orderUuid))?.last_error?.includes('hot wallet underfunded'),
      {
        timeoutMs: 30_000,
        description: 'underfunded note',
      },
    );
    expect(held.state).toBe('PENDING');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await t.settlement(data.orderUuid))?.state).toBe('PENDING'); // held, not failed
    expect(h.collector.forOrder(Topics.TransferFailed, data.orderUuid)).toHaveLength(0);
    const whileHeld = await scrapeMetrics(t.app);
    expect(Number(whileHeld.get('settlement_held_underfunded'))).toBeGreaterThanOrEqual(1);
    expect(whileHeld.get(`settlement_hot_wallet_usdc{address="${hotWallet.address}"}`)).toBe('0');
    expect(Number(whileHeld.get('settlement_settlements{state="PENDING"}'))).toBeGreaterThanOrEqual(1);

    await chain.mint(hotWallet.address, parseUnits('1000000', 6)); // plenty: other suites' payments may land here too
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid, 60_000);
    expect(event.data.sentTokenAmount).toBe('53.46'); // 50 x 1.08 x 0.99
    expect(await chain.balanceOf(data.recipientAddress)).toBe(53_460_000n);
    const resumed = await waitFor(
      async () => {
        const m = await scrapeMetrics(t.app);
        return m.get('settlement_held_underfunded') === '0' ? m : undefined;
      },
      { timeoutMs: 60_000, description: 'no settlement held any more' },
    );
    expect(resumed.get(`settlement_hot_wallet_usdc{address="${hotWallet.address}"}`)).toBe(
      usdcToString(await chain.balanceOf(hotWallet.address)), // 1,000,000 - 53.46 when alone
    );
    expect(Number(resumed.get('settlement_settlements{state="CONFIRMED"}'))).toBeGreaterThanOrEqual(1);
  });

  it('pays a confirmed payment exactly once, with the exact FX amount, and publishes transfer.succeeded', async () => {
    const data = h.payment({ payedAmount: '100.10' });
    await h.confirm(data);
    const event = await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);

    const row = await t.settlement(data.orderUuid);
    expect(row?.state).toBe('CONFIRMED');
    expect(event.merchantId).toBe(h.merchant);
    expect(event.data).toEqual({
      orderUuid: data.orderUuid,
      transactionHash: row?.tx_hash,
      payedAmount: '100.1',
      sentTokenAmount: '107.02692', // floats would say 107.026919
      sentTokenCurrency: 'USDC',
      recipientAddress: data.recipientAddress,
      fxRateBase: '1.08',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: expect.stringMatching(/Z$/),
      chainId: chain.chainId,
      payerAccountHolderName: 'Jane Doe',
    });
    expect(await chain.balanceOf(data.recipientAddress)).toBe(107_026_920n);
    expect(await chain.transfersTo(data.recipientAddress)).toEqual([
      { txHash: row?.tx_hash, value: 107_026_920n },
    ]);
  });

  it('never pays twice for one order: a redelivered event and a second confirmation change nothing', async () => {
    const data = h.payment({ payedAmount: '20' });
    const first = await h.confirm(data);
    await produce(h.producer, first, data.orderUuid); // the same event again (same id)
    await h.confirm({ ...data, bankTransactionId: randomUUID(), payedAmount: '999' }); // another credit's confirmation
    await h.collector.waitFor(Topics.TransferSucceeded, data.orderUuid);
    await new Promise((r) => setTimeout(r, 1500)); // room for a wrong second payout to appear

    expect(await chain.transfersTo(data.recipientAddress)).toHaveLength(1);
    expect(await chain.balanceOf(data.recipientAddress)).toBe(21_384_000n); // 20 x 1.0692, the first confirmation
    expect(h.collector.forOrder(Topics.TransferSucceeded, data.orderUuid)).toHaveLength(1);
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM settlement.settlements WHERE order_uuid = $1`,
      [data.orderUuid],
    );
    expect(n).toBe(1);
  });

  it('fails the order before any payout when the recipient is USDC-blacklisted or sanctioned', async () => {
    const blacklisted = h.payment({ payedAmount: '10' });
    const sanctioned = h.payment({ payedAmount: '11', recipientAddress: sanctionedAddress });
    await chain.blacklist(blacklisted.recipientAddress);
    await h.confirm(blacklisted);
    await h.confirm(sanctioned);
    const [a, b] = await Promise.all([
      h.collector.waitFor(Topics.TransferFailed, blacklisted.orderUuid),
      h.collector.waitFor(Topics.TransferFailed, sanctioned.orderUuid),
    ]);

    expect(a.data).toEqual({
      orderUuid: blacklisted.orderUuid,
      transactionHash: '', // nothing was signed, nothing reached the chain
      payedAmount: '10',
      reason: expect.stringMatching(/^recipient refused: .* is blacklisted by the USDC contract/),
    });
    expect(b.data.reason).toMatch(/is on the sanctioned address list; no payout was sent/);
    for (const order of [blacklisted, sanctioned]) {
      const row = await t.settlement(order.orderUuid);
      expect(row).toMatchObject({ state: 'FAILED', nonce: null, tx_hash: null, raw_tx: null });
      expect(await chain.transfersTo(order.recipientAddress)).toEqual([]);
    }
    const [{ n }] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM settlement.settlement_transactions WHERE order_uuid = ANY($1)`,
      [[blacklisted.orderUuid, sanctioned.orderUuid]],
    );
    expect(n).toBe(0); // no nonce taken: the next payout is not stuck behind a gap
    const metrics = await scrapeMetrics(t.app);
    expect(Number(metrics.get('settlement_recipients_refused_total'))).toBeGreaterThanOrEqual(2);

    const next = h.payment({ payedAmount: '1' });
    await h.confirm(next);
    await h.collector.waitFor(Topics.TransferSucceeded, next.orderUuid);
  });

  it('after a restart, re-broadcasts the stored bytes of signed transfers and pays each exactly once', async () => {
    // Stop the worker: transfers get signed and stored, but the process "dies" before sending them.
    await t.app.get(SettlementWorker).stop();
    const unsent = h.payment({ payedAmount: '30' });
    const sentBeforeCrash = h.payment({ payedAmount: '40' });
    await h.confirm(unsent);
    await t.settlementIn(unsent.orderUuid, ['PENDING']);
    await h.confirm(sentBeforeCrash); // created later, so signed with a higher nonce
    await t.settlementIn(sentBeforeCrash.orderUuid, ['PENDING']);
    const signing = t.app.get(SignPendingStep);
    const skip = new Set<string>();
    while ((await signing.runOnce(heldSigner(t), skip)).kind !== 'idle') {
      // other suites' payments may be queued here too; sign everything that is due
    }
    const before = {
      unsent: (await t.settlement(unsent.orderUuid)) as SettlementRow,
      sent: (await t.settlement(sentBeforeCrash.orderUuid)) as SettlementRow,
    };
    expect([before.unsent.state, before.sent.state]).toEqual(['SIGNED', 'SIGNED']);
    expect(BigInt(before.sent.nonce as string)).toBeGreaterThan(BigInt(before.unsent.nonce as string));
    expect(await chain.provider.getTransaction(before.unsent.tx_hash as string)).toBeNull();
    // The other one reached the node just before the crash; it waits in the mempool for the lower nonce.
    await chain.provider.broadcastTransaction(before.sent.raw_tx as string);
    expect(await chain.provider.getTransactionReceipt(before.sent.tx_hash as string)).toBeNull();
    // Hold the unsent one back a few seconds (as a retry delay would), so the restarted worker
    // first meets the transaction the node already has.
    await t.dataSource.query(
      `UPDATE settlement.settlements SET next_attempt_at = now() + interval '8 seconds' WHERE order_uuid = $1`,
      [unsent.orderUuid],
    );
    await t.close(); // the crash

    t = await startChainSettlementTestApp({ env, groupId: h.groupId, databaseUrl: t.databaseUrl });
    // "already known" is a clue, not a failure: the worker takes it as sent and waits for the receipt.
    const known = await t.settlementIn(sentBeforeCrash.orderUuid, ['BROADCAST'], 6_000);
    expect(known).toMatchObject({ tx_hash: before.sent.tx_hash, last_error: null });
    expect((await t.settlement(unsent.orderUuid))?.state).toBe('SIGNED');

    const [a, b] = await Promise.all([
      h.collector.waitFor(Topics.TransferSucceeded, unsent.orderUuid, 60_000),
      h.collector.waitFor(Topics.TransferSucceeded, sentBeforeCrash.orderUuid, 60_000),
    ]);
    expect(a.data.transactionHash).toBe(before.unsent.tx_hash);
    expect(b.data.transactionHash).toBe(before.sent.tx_hash);
    expect(await t.settlement(unsent.orderUuid)).toMatchObject({
      state: 'CONFIRMED',
      raw_tx: before.unsent.raw_tx,
      nonce: before.unsent.nonce,
    });
    expect(await chain.transfersTo(unsent.recipientAddress)).toEqual([
      { txHash: before.unsent.tx_hash, value: 32_076_000n },
    ]);
    expect(await chain.transfersTo(sentBeforeCrash.recipientAddress)).toEqual([
      { txHash: before.sent.tx_hash, value: 42_768_000n },
    ]);
  });
});
