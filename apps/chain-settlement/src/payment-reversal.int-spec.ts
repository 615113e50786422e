import { parseUnits, Wallet } from 'ethers';

import { EventEnvelope, PaymentConfirmedV1, PaymentReversedV1, Topics } from '@onramp/contracts';
import { envelope, produce, produceMany, waitFor } from '@onramp/testing';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { SettlementHarness, startSettlementHarness } from './testing/settlement-harness';
import { setUpTestChain, TestChain } from './testing/test-chain';

const REASON = 'payment reversed by the bank (FR01) before payout';

// payment.reversed against real Postgres, Kafka and anvil: a payout not signed yet is cancelled and
// the order fails (transfer.failed, once); a signed one goes ahead. Never both, never twice.
describe('chain-settlement: a reversed payment stops its payout before signing (integration)', () => {
  let chain: TestChain;
  let hotWallet: Wallet;
  let h: SettlementHarness;
  let t: ChainSettlementTestApp;

  const payment = (overrides: Partial<PaymentConfirmedV1> = {}) =>
    h.payment({ payedAmount: '10.00', ...overrides });
  const reversalOf = (p: PaymentConfirmedV1): PaymentReversedV1 => ({
    orderUuid: p.orderUuid,
    bankTransactionId: p.bankTransactionId,
    reference: p.reference,
    amount: p.payedAmount,
    reason: 'FR01',
  });
  const confirmEvent = (p: PaymentConfirmedV1) => envelope(Topics.PaymentConfirmed, h.merchant, p);
  const reverseEvent = (p: PaymentConfirmedV1) => envelope(Topics.PaymentReversed, h.merchant, reversalOf(p));
  const settlement = async (
    orderUuid: string,
  ): Promise<{ state: string; nonce: string | null } | undefined> =>
    (
      await t.dataSource.query(
        `SELECT state, nonce::text FROM settlement.settlements WHERE order_uuid = $1`,
        [orderUuid],
      )
    )[0];
  const outcome = async (orderUuid: string): Promise<string | undefined> =>
    (
      await t.dataSource.query(`SELECT outcome FROM settlement.payment_reversals WHERE order_uuid = $1`, [
        orderUuid,
      ])
    )[0]?.outcome;
  const signedTransactions = async (orderUuid: string): Promise<number> =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM settlement.settlement_transactions WHERE order_uuid = $1`,
        [orderUuid],
      )
    )[0].n;

  beforeAll(async () => {
    chain = await setUpTestChain();
    hotWallet = await chain.newFundedWallet(); // ETH for gas, no USDC: payouts wait PENDING
    h = await startSettlementHarness({ topics: [Topics.PaymentReversed] });
    t = await startChainSettlementTestApp({
      env: {
        ...chain.settlementEnv(hotWallet.privateKey),
        CHAIN_CONFIRMATIONS: '1',
        SETTLEMENT_MAX_PER_TRANSFER_USDC: '1000', // a larger payout waits HELD for an operator
      },
      groupId: h.groupId,
    });
  });

  afterAll(async () => {
    await t?.close();
    await h?.close();
    chain?.close();
  });

  it('cancels a payout still PENDING: the order fails once, and nothing is ever signed for it', async () => {
    const p = payment();
    await produce(h.producer, confirmEvent(p), p.orderUuid);
    await waitFor(async () => (await settlement(p.orderUuid))?.state === 'PENDING', {
      description: 'settlement held PENDING (wallet without USDC)',
    });
    const reversed = reverseEvent(p);
    await produce(h.producer, reversed, p.orderUuid);
    const failed = await h.collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.merchantId).toBe(h.merchant);
    expect(failed.data).toEqual({
      orderUuid: p.orderUuid,
      transactionHash: '',
      payedAmount: '0',
      reason: REASON,
    });
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await outcome(p.orderUuid)).toBe('CANCELLED');

    // a redelivery and a second reversal event change nothing; funding the wallet signs nothing for it
    await produce(h.producer, reversed, p.orderUuid);
    await produce(h.producer, reverseEvent(p), p.orderUuid);
    await chain.mint(hotWallet.address, parseUnits('1000000', 6));
    const control = payment();
    await produce(h.producer, confirmEvent(control), control.orderUuid);
    await h.collector.waitFor(Topics.TransferSucceeded, control.orderUuid, 60_000); // the worker ran meanwhile
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await signedTransactions(p.orderUuid)).toBe(0);
    expect(await chain.balanceOf(p.recipientAddress)).toBe(0n);
    expect(h.collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(1);
    expect(h.collector.forOrder(Topics.TransferSucceeded, p.orderUuid)).toHaveLength(0);
  }, 120_000);

  it('cancels a payout HELD over a payout cap, which no operator release can then sign', async () => {
    const p = payment({ payedAmount: '2000.00' }); // 2138.40 USDC, over the 1000 cap
    await produce(h.producer, confirmEvent(p), p.orderUuid);
    await waitFor(async () => (await settlement(p.orderUuid))?.state === 'HELD', {
      timeoutMs: 60_000,
      description: 'settlement HELD over the cap',
    });
    await produce(h.producer, reverseEvent(p), p.orderUuid);
    const failed = await h.collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.data.reason).toBe(REASON);
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await outcome(p.orderUuid)).toBe('CANCELLED');
    expect(await signedTransactions(p.orderUuid)).toBe(0);
  }, 120_000);

  it('fails the order when the reversal overtakes its payment.confirmed, which then creates no settlement', async () => {
    const p = payment();
    await produce(h.producer, reverseEvent(p), p.orderUuid);
    const failed = await h.collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.data.reason).toBe(REASON);
    expect(await outcome(p.orderUuid)).toBe('BEFORE_SETTLEMENT');
    const confirmed = confirmEvent(p);
    await produce(h.producer, confirmed, p.orderUuid);
    await waitFor(
      async () => {
        const [row]: { n: number }[] = await t.dataSource.query(
          `SELECT count(*)::int AS n FROM settlement.inbox WHERE event_id = $1`,
          [confirmed.id],
        );
        return (row?.n ?? 0) > 0;
      },
      { description: 'payment.confirmed consumed' },
    );
    expect(await settlement(p.orderUuid)).toBeUndefined();
    expect(h.collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(1);
  });

  it('never withdraws a signed transfer: a reversal after signing is too late and the payout goes ahead', async () => {
    const p = payment({ payedAmount: '20.00' });
    await produce(h.producer, confirmEvent(p), p.orderUuid);
    await h.collector.waitFor(Topics.TransferSucceeded, p.orderUuid, 60_000);
    await produce(h.producer, reverseEvent(p), p.orderUuid);
    await waitFor(async () => (await outcome(p.orderUuid)) === 'TOO_LATE', {
      description: 'reversal recorded as too late',
    });
    expect((await settlement(p.orderUuid))?.state).toBe('CONFIRMED');
    expect(h.collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(0);
  }, 120_000);

  it('races reversals with the signing worker: each order is either cancelled or paid, exactly once', async () => {
    const payments = Array.from({ length: 30 }, (_, i) => payment({ payedAmount: `${i + 1}.00` }));
    // each reversal right behind its confirmation, on another topic: some arrive before the worker
    // signs, some after, some before the confirmation itself
    const events: EventEnvelope[] = payments.flatMap((p) => [confirmEvent(p), reverseEvent(p)]);
    const keyOf = new Map(events.map((e) => [e.id, (e.data as { orderUuid: string }).orderUuid]));
    await produceMany(h.producer, events, (e) => keyOf.get(e.id) as string);

    const outcomes = await waitFor(
      async () => {
        const all = await Promise.all(payments.map((p) => outcome(p.orderUuid)));
        return all.every((o) => o !== undefined) ? all : undefined;
      },
      { timeoutMs: 60_000, description: 'every reversal handled' },
    );
    const tally: Record<string, number> = {};
    for (const [i, p] of payments.entries()) {
      const o = outcomes[i] as string;
      tally[o] = (tally[o] ?? 0) + 1;
      if (o === 'TOO_LATE') {
        await h.collector.waitFor(Topics.TransferSucceeded, p.orderUuid, 60_000);
        expect(await chain.balanceOf(p.recipientAddress)).toBeGreaterThan(0n);
        expect(h.collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(0);
      } else {
        await h.collector.waitFor(Topics.TransferFailed, p.orderUuid);
        expect(['CANCELLED', undefined]).toContain((await settlement(p.orderUuid))?.state);
        expect(await signedTransactions(p.orderUuid)).toBe(0);
      }
    }
    // settle: whatever was signed is mined; then nothing more may appear for the cancelled ones
    await new Promise((r) => setTimeout(r, 1500));
    for (const [i, p] of payments.entries()) {
      const paid = outcomes[i] === 'TOO_LATE';
      expect(h.collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(paid ? 0 : 1);
      expect(h.collector.forOrder(Topics.TransferSucceeded, p.orderUuid)).toHaveLength(paid ? 1 : 0);
      expect((await chain.transfersTo(p.recipientAddress)).length).toBe(paid ? 1 : 0);
    }
    process.stderr.write(`\n[payment-reversal] 30 raced reversals: ${JSON.stringify(tally)}\n`);
  }, 180_000);
});
