import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';
import { parseUnits, Wallet } from 'ethers';

import { EventEnvelope, PaymentConfirmedV1, PaymentReversedV1, Topics } from '@onramp/contracts';
import { generateRfReference } from '@onramp/sepa';
import {
  ensureTopics,
  envelope,
  EventCollector,
  produce,
  produceMany,
  startGroupAtEnd,
  testKafka,
  waitFor,
} from '@onramp/testing';

import { ChainSettlementTestApp, startChainSettlementTestApp } from './testing/chain-settlement-test-app';
import { setUpTestChain, TestChain } from './testing/test-chain';

const REASON = 'payment reversed by the bank (FR01) before payout';

// payment.reversed against real Postgres, Kafka and anvil: a payout not signed yet is cancelled and
// the order fails (transfer.failed, once); a signed one goes ahead. Never both, never twice.
describe('chain-settlement: a reversed payment stops its payout before signing (integration)', () => {
  const kafka = testKafka();
  const groupId = `onramp-chain-settlement-test-${randomUUID()}`;
  const merchant = randomUUID();
  let chain: TestChain;
  let hotWallet: Wallet;
  let t: ChainSettlementTestApp;
  let producer: Producer;
  let collector: EventCollector;

  const payment = (overrides: Partial<PaymentConfirmedV1> = {}): PaymentConfirmedV1 => ({
    orderUuid: randomUUID(),
    bankTransactionId: randomUUID(),
    reference: generateRfReference(),
    payedAmount: '10.00',
    currency: 'EUR',
    payerAccountHolderName: 'Jane Doe',
    recipientAddress: Wallet.createRandom().address,
    bookedAt: new Date().toISOString(),
    ...overrides,
  });
  const reversalOf = (p: PaymentConfirmedV1): PaymentReversedV1 => ({
    orderUuid: p.orderUuid,
    bankTransactionId: p.bankTransactionId,
    reference: p.reference,
    amount: p.payedAmount,
    reason: 'FR01',
  });
  const confirmEvent = (p: PaymentConfirmedV1) => envelope(Topics.PaymentConfirmed, merchant, p);
  const reverseEvent = (p: PaymentConfirmedV1) => envelope(Topics.PaymentReversed, merchant, reversalOf(p));
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
    producer = kafka.producer();
    collector = new EventCollector(kafka);
    await ensureTopics(kafka);
    await Promise.all([
      producer.connect(),
      collector.start([Topics.TransferSucceeded, Topics.TransferFailed]),
      startGroupAtEnd(groupId, [Topics.PaymentConfirmed, Topics.PaymentReversed], kafka),
    ]);
    t = await startChainSettlementTestApp({
      env: {
        RPC_URL: chain.rpcUrl,
        CHAIN_ID: String(chain.chainId),
        USDC_ADDRESS: chain.usdcAddress,
        SETTLEMENT_SIGNER_KEY: hotWallet.privateKey,
        SETTLEMENT_POLL_MS: '100',
        CHAIN_CONFIRMATIONS: '1',
        SETTLEMENT_MAX_PER_TRANSFER_USDC: '1000', // a larger payout waits HELD for an operator
      },
      groupId,
    });
  });

  afterAll(async () => {
    await t?.close();
    await collector?.stop();
    await producer?.disconnect();
    chain?.close();
  });

  it('cancels a payout still PENDING: the order fails once, and nothing is ever signed for it', async () => {
    const p = payment();
    await produce(producer, confirmEvent(p), p.orderUuid);
    await waitFor(async () => (await settlement(p.orderUuid))?.state === 'PENDING', {
      description: 'settlement held PENDING (wallet without USDC)',
    });
    const reversed = reverseEvent(p);
    await produce(producer, reversed, p.orderUuid);
    const failed = await collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.merchantId).toBe(merchant);
    expect(failed.data).toEqual({
      orderUuid: p.orderUuid,
      transactionHash: '',
      payedAmount: '0',
      reason: REASON,
    });
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await outcome(p.orderUuid)).toBe('CANCELLED');

    // a redelivery and a second reversal event change nothing; funding the wallet signs nothing for it
    await produce(producer, reversed, p.orderUuid);
    await produce(producer, reverseEvent(p), p.orderUuid);
    await chain.mint(hotWallet.address, parseUnits('1000000', 6));
    const control = payment();
    await produce(producer, confirmEvent(control), control.orderUuid);
    await collector.waitFor(Topics.TransferSucceeded, control.orderUuid, 60_000); // the worker ran meanwhile
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await signedTransactions(p.orderUuid)).toBe(0);
    expect(await chain.balanceOf(p.recipientAddress)).toBe(0n);
    expect(collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(1);
    expect(collector.forOrder(Topics.TransferSucceeded, p.orderUuid)).toHaveLength(0);
  }, 120_000);

  it('cancels a payout HELD over a payout cap, which no operator release can then sign', async () => {
    const p = payment({ payedAmount: '2000.00' }); // 2138.40 USDC, over the 1000 cap
    await produce(producer, confirmEvent(p), p.orderUuid);
    await waitFor(async () => (await settlement(p.orderUuid))?.state === 'HELD', {
      timeoutMs: 60_000,
      description: 'settlement HELD over the cap',
    });
    await produce(producer, reverseEvent(p), p.orderUuid);
    const failed = await collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.data.reason).toBe(REASON);
    expect(await settlement(p.orderUuid)).toEqual({ state: 'CANCELLED', nonce: null });
    expect(await outcome(p.orderUuid)).toBe('CANCELLED');
    expect(await signedTransactions(p.orderUuid)).toBe(0);
  }, 120_000);

  it('fails the order when the reversal overtakes its payment.confirmed, which then creates no settlement', async () => {
    const p = payment();
    await produce(producer, reverseEvent(p), p.orderUuid);
    const failed = await collector.waitFor(Topics.TransferFailed, p.orderUuid);
    expect(failed.data.reason).toBe(REASON);
    expect(await outcome(p.orderUuid)).toBe('BEFORE_SETTLEMENT');
    const confirmed = confirmEvent(p);
    await produce(producer, confirmed, p.orderUuid);
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
    expect(collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(1);
  });

  it('never withdraws a signed transfer: a reversal after signing is too late and the payout goes ahead', async () => {
    const p = payment({ payedAmount: '20.00' });
    await produce(producer, confirmEvent(p), p.orderUuid);
    await collector.waitFor(Topics.TransferSucceeded, p.orderUuid, 60_000);
    await produce(producer, reverseEvent(p), p.orderUuid);
    await waitFor(async () => (await outcome(p.orderUuid)) === 'TOO_LATE', {
      description: 'reversal recorded as too late',
    });
    expect((await settlement(p.orderUuid))?.state).toBe('CONFIRMED');
    expect(collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(0);
  }, 120_000);

  it('races reversals with the signing worker: each order is either cancelled or paid, exactly once', async () => {
    const payments = Array.from({ length: 30 }, (_, i) => payment({ payedAmount: `${i + 1}.00` }));
    // each reversal right behind its confirmation, on another topic: some arrive before the worker
    // signs, some after, some before the confirmation itself
    const events: EventEnvelope[] = payments.flatMap((p) => [confirmEvent(p), reverseEvent(p)]);
    const keyOf = new Map(events.map((e) => [e.id, (e.data as { orderUuid: string }).orderUuid]));
    await produceMany(producer, events, (e) => keyOf.get(e.id) as string);

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
        await collector.waitFor(Topics.TransferSucceeded, p.orderUuid, 60_000);
        expect(await chain.balanceOf(p.recipientAddress)).toBeGreaterThan(0n);
        expect(collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(0);
      } else {
        await collector.waitFor(Topics.TransferFailed, p.orderUuid);
        expect(['CANCELLED', undefined]).toContain((await settlement(p.orderUuid))?.state);
        expect(await signedTransactions(p.orderUuid)).toBe(0);
      }
    }
    // settle: whatever was signed is mined; then nothing more may appear for the cancelled ones
    await new Promise((r) => setTimeout(r, 1500));
    for (const [i, p] of payments.entries()) {
      const paid = outcomes[i] === 'TOO_LATE';
      expect(collector.forOrder(Topics.TransferFailed, p.orderUuid)).toHaveLength(paid ? 0 : 1);
      expect(collector.forOrder(Topics.TransferSucceeded, p.orderUuid)).toHaveLength(paid ? 1 : 0);
      expect((await chain.transfersTo(p.recipientAddress)).length).toBe(paid ? 1 : 0);
    }
    process.stderr.write(`\n[payment-reversal] 30 raced reversals: ${JSON.stringify(tally)}\n`);
  }, 180_000);
});
