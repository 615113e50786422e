import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { blindIndexes, DEVELOPMENT_KEYS, FieldCipher, openPayerName } from '@onramp/crypto';
import { EventEnvelope, OrderFailedV2, Topics } from '@onramp/contracts';
import { generateRfReference, normalizeReference } from '@onramp/sepa';
import {
  envelope,
  EventCollector,
  eventsAbout,
  produce,
  publishedEvents,
  testKafka,
  waitFor,
} from '@onramp/testing';

import { BankTransactionsRepository } from '@onramp/payments-feature';

import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';
import { postSepaCredit } from '../testing/sandbox-credits';

interface CreditRow {
  match_status: string;
  matched_order_uuid: string | null;
  amount: string;
}

describe('payment-ingest: sandbox bank credits matched to orders (integration)', () => {
  let t: PaymentIngestTestApp;
  let producer: Producer;
  let collector: EventCollector;
  const kafka = testKafka();
  const merchant = randomUUID();

  const newOrder = () => ({
    orderUuid: randomUUID(),
    reference: generateRfReference(),
    recipientAddress: '0x' + randomUUID().replace(/-/g, '').padEnd(40, 'a'),
  });
  type Order = ReturnType<typeof newOrder>;

  const announce = async (order: Order, merchantId = merchant) => {
    const data = {
      orderUuid: order.orderUuid,
      kycUserUuid: randomUUID(),
      amount: '100',
      currency: 'EUR' as const,
      recipientAddress: order.recipientAddress,
      reference: order.reference,
      createdAt: new Date().toISOString(),
    };
    const event = envelope(Topics.OrderCreated, merchantId, data);
    await produce(producer, event, order.orderUuid);
    return event;
  };
  const referenceOpen = (order: Order) =>
    waitFor(
      async () => {
        const rows: { status: string }[] = await t.dataSource.query(
          `SELECT status FROM payments.open_references WHERE order_uuid = $1`,
          [order.orderUuid],
        );
        return rows[0]?.status === 'OPEN';
      },
      { timeoutMs: 30_000, description: `open reference of ${order.orderUuid}` },
    );
  const referenceStatus = async (order: Order): Promise<string | undefined> =>
    (
      await t.dataSource.query(`SELECT status FROM payments.open_references WHERE order_uuid = $1`, [
        order.orderUuid,
      ])
    )[0]?.status;
  const failed = (order: Order): OrderFailedV2 => ({
    orderUuid: order.orderUuid,
    kycUserUuid: randomUUID(),
    amount: '100.50',
    currency: 'EUR',
    reference: order.reference,
    recipientAddress: order.recipientAddress,
    payedAmount: '0',
    sentTokenAmount: '0',
    sentTokenCurrency: null,
    transactionHash: '',
    reason: 'recipient address not provided',
    failedAt: new Date().toISOString(),
  });
  // Version 1, written before the events stopped being webhook bodies: it may still be on the topic
  // while a deployment rolls.
  const failedV1 = (order: Order): EventEnvelope => ({
    ...envelope(Topics.OrderFailed, merchant, failed(order)),
    version: 1,
    data: {
      event: 'order.failed',
      status: 'FAILED',
      orderUuid: order.orderUuid,
      userUuid: randomUUID(),
      amount: 100.5,
      payedAmount: 0,
      sentTokenAmount: 0,
      sentTokenCurrency: null,
      currency: 'EUR',
      reference: order.reference,
      recipientAddress: order.recipientAddress,
      transactionHash: '',
      message: 'recipient address not provided',
      timestamp: new Date().toISOString(),
    },
  });
  const credit = (body: Record<string, unknown>, merchantId = merchant) =>
    postSepaCredit(t, merchantId, body);
  const creditRow = async (id: string): Promise<CreditRow> =>
    (
      await t.dataSource.query(
        `SELECT match_status, matched_order_uuid, amount FROM payments.bank_transactions WHERE id = $1`,
        [id],
      )
    )[0];
  // Events payment-ingest published for the order (the relay deletes what it published).
  const publishedCount = async (orderUuid: string): Promise<number> =>
    eventsAbout(
      await publishedEvents((sql) => t.dataSource.query(sql), 'payments', [
        Topics.PaymentConfirmed,
        Topics.PaymentFailed,
        Topics.PaymentReversed,
      ]),
      [orderUuid],
    ).filter((e) => e.key === orderUuid).length;

  beforeAll(async () => {
    producer = kafka.producer();
    await producer.connect();
    collector = new EventCollector(kafka);
    await collector.start([Topics.PaymentConfirmed, Topics.PaymentFailed]);
    t = await startPaymentIngestTestApp();
  });

  afterAll(async () => {
    await t?.close();
    await collector?.stop();
    await producer?.disconnect();
  });

  it('confirms a BOOKED credit for an open reference and publishes payment.confirmed', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);

    const res = await credit({
      reference: order.reference,
      amount: '99.90',
      payerName: 'Jane Doe',
      payerIban: 'DE89 3704 0044 0532 0130 00',
    });
    expect(res.statusCode).toBe(202);
    const { bankTransactionId } = res.json();
    expect(bankTransactionId).toMatch(/^[0-9a-f-]{36}$/);

    const event = await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    expect(event.merchantId).toBe(merchant);
    expect(event.data).toEqual({
      orderUuid: order.orderUuid,
      bankTransactionId,
      reference: order.reference,
      payedAmount: '99.9', // what was credited, not the order amount
      currency: 'EUR',
      payerAccountHolderName: expect.stringMatching(/^v1\./), // sealed for the order
      recipientAddress: order.recipientAddress,
      bookedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const payerData = new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption);
    expect(openPayerName(payerData, order.orderUuid, event.data.payerAccountHolderName)).toBe('Jane Doe');
    expect(await creditRow(bankTransactionId)).toEqual({
      match_status: 'MATCHED',
      matched_order_uuid: order.orderUuid,
      amount: '99.90',
    });
    // at rest: sealed and bound to the row, the IBAN findable only by its blind index
    const [stored] = await t.dataSource.query<
      { payer_name: string; payer_iban: string; payer_iban_index: string }[]
    >(`SELECT payer_name, payer_iban, payer_iban_index FROM payments.bank_transactions WHERE id = $1`, [
      bankTransactionId,
    ]);
    expect(stored.payer_name).toMatch(/^v1\./);
    expect(stored.payer_iban).toMatch(/^v1\./);
    // whole values: a ciphertext is random base64url, and 'Jane' turns up in one now and then
    expect(JSON.stringify(stored)).not.toMatch(/Jane Doe|DE89370400440532013000/);
    expect(
      payerData.decrypt(stored.payer_iban, `payments:bank-transaction:${bankTransactionId}:payer-iban`),
    ).toBe('DE89370400440532013000');
    expect(stored.payer_iban_index).toEqual(
      blindIndexes([DEVELOPMENT_KEYS.payerDataEncryption], 'iban', 'DE89370400440532013000')[0],
    );
  });

  it('holds a credit that arrives before order.created and confirms it once the event arrives', async () => {
    const order = newOrder();
    const res = await credit({ reference: order.reference, amount: 42.5 });
    expect(res.statusCode).toBe(202);
    const { bankTransactionId, hint } = res.json();
    expect((await creditRow(bankTransactionId)).match_status).toBe('UNMATCHED');
    expect(hint).toMatch(/no open order of yours has this reference/);

    await announce(order);
    const event = await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    expect(event.data).toMatchObject({ bankTransactionId, payedAmount: '42.5', reference: order.reference });
    expect((await creditRow(bankTransactionId)).match_status).toBe('MATCHED');
  });

  // The reference's advisory lock orders a credit and the order.created of its reference. A test
  // transaction holds it while both queue up behind it, in a chosen order, then lets them go.
  const holdReferenceLock = async (order: Order) => {
    const runner = t.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    await runner.query(`SELECT pg_advisory_xact_lock(hashtext('payments.reference'), hashtext($1))`, [
      normalizeReference(order.reference),
    ]);
    return async () => {
      await runner.commitTransaction();
      await runner.release();
    };
  };
  const lockWaiters = (order: Order, n: number) =>
    waitFor(
      async () => {
        const [row]: { n: string }[] = await t.dataSource.query(
          `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = hashtext($1)::oid`,
          [normalizeReference(order.reference)],
        );
        return Number(row.n) >= n;
      },
      { timeoutMs: 30_000, description: `${n} waiting for the lock of ${order.reference}` },
    );

  it('pays a credit that commits while its order.created waits for the reference', async () => {
    const order = newOrder();
    const release = await holdReferenceLock(order);
    const posted = credit({ reference: order.reference });
    await lockWaiters(order, 1);
    await announce(order);
    await lockWaiters(order, 2); // order.created queued behind the credit
    await release();
    const res = await posted;
    // no reference yet when it committed
    expect(res.json().hint).toMatch(/no open order of yours has this reference/);
    const event = await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    expect(event.data).toMatchObject({ bankTransactionId: res.json().bankTransactionId });
    expect(await referenceStatus(order)).toBe('MATCHED');
    expect(await publishedCount(order.orderUuid)).toBe(1);
  });

  it('pays a credit that waits while the order.created of its reference commits', async () => {
    const order = newOrder();
    const release = await holdReferenceLock(order);
    await announce(order);
    await lockWaiters(order, 1);
    const posted = credit({ reference: order.reference });
    await lockWaiters(order, 2); // the credit queued behind order.created
    await release();
    const res = await posted;
    expect((await creditRow(res.json().bankTransactionId)).match_status).toBe('MATCHED');
    await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    expect(await publishedCount(order.orderUuid)).toBe(1);
  });

  it('finds the reference in free-text remittance information, whatever the case and spacing', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);
    const spaced = (order.reference.match(/.{1,4}/g) ?? []).join(' ').toLowerCase();

    const res = await credit({ remittanceInformation: `Payment for order ${spaced}, thank you`, amount: 10 });
    expect(res.statusCode).toBe(202);
    const event = await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    expect(event.data).toMatchObject({
      bankTransactionId: res.json().bankTransactionId,
      reference: order.reference,
      payedAmount: '10',
    });
  });

  it('matches a lowercase, spaced reference field and an RF reference inside the end-to-end id', async () => {
    const a = newOrder();
    const b = newOrder();
    await Promise.all([announce(a), announce(b)]);
    await Promise.all([referenceOpen(a), referenceOpen(b)]);

    expect(
      (await credit({ reference: ` ${a.reference.slice(0, 6).toLowerCase()} ${a.reference.slice(6)} ` }))
        .statusCode,
    ).toBe(202);
    expect((await credit({ endToEndId: `E2E-${b.reference}` })).statusCode).toBe(202);
    await collector.waitFor(Topics.PaymentConfirmed, a.orderUuid);
    await collector.waitFor(Topics.PaymentConfirmed, b.orderUuid);
  });

  it('fails the payment for a REJECTED credit and closes the reference', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);

    const res = await credit({ reference: order.reference, status: 'REJECTED' });
    expect(res.statusCode).toBe(202);
    const event = await collector.waitFor(Topics.PaymentFailed, order.orderUuid);
    expect(event.data).toEqual({
      orderUuid: order.orderUuid,
      bankTransactionId: res.json().bankTransactionId,
      reference: order.reference,
      payedAmount: '0',
      reason: 'SEPA credit rejected by the bank',
    });
    // a later BOOKED credit for the same reference does not revive the order
    const late = await credit({ reference: order.reference });
    expect((await creditRow(late.json().bankTransactionId)).match_status).toBe('DUPLICATE');
    expect(collector.forOrder(Topics.PaymentConfirmed, order.orderUuid)).toHaveLength(0);
  });

  it('never confirms twice: a second credit, or two at the same moment, is stored as DUPLICATE', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);

    const results = await Promise.all([
      credit({ reference: order.reference }),
      credit({ reference: order.reference }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([202, 202]);
    const statuses = await Promise.all(
      results.map(async (r) => (await creditRow(r.json().bankTransactionId)).match_status),
    );
    expect(statuses.sort()).toEqual(['DUPLICATE', 'MATCHED']);

    const third = await credit({ reference: order.reference, amount: 5 });
    expect((await creditRow(third.json().bankTransactionId)).match_status).toBe('DUPLICATE');

    expect(await publishedCount(order.orderUuid)).toBe(1);
    await collector.waitFor(Topics.PaymentConfirmed, order.orderUuid);
    await new Promise((r) => setTimeout(r, 1000)); // give a wrong second event the chance to show up
    expect(collector.forOrder(Topics.PaymentConfirmed, order.orderUuid)).toHaveLength(1);
  });

  it("only matches the calling merchant's references", async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);

    const res = await credit({ reference: order.reference }, randomUUID());
    expect(res.statusCode).toBe(202);
    expect((await creditRow(res.json().bankTransactionId)).match_status).toBe('UNMATCHED');
    expect(await publishedCount(order.orderUuid)).toBe(0);
  });

  it('takes no money for a finished order (order.failed closes the reference)', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);
    await produce(producer, envelope(Topics.OrderFailed, merchant, failed(order)), order.orderUuid);
    await waitFor(
      async () => {
        const rows: { status: string }[] = await t.dataSource.query(
          `SELECT status FROM payments.open_references WHERE order_uuid = $1`,
          [order.orderUuid],
        );
        return rows[0]?.status === 'CLOSED';
      },
      { timeoutMs: 30_000, description: 'reference closed' },
    );

    const res = await credit({ reference: order.reference });
    expect((await creditRow(res.json().bankTransactionId)).match_status).toBe('DUPLICATE');
    expect(await publishedCount(order.orderUuid)).toBe(0);
  });

  it.each([
    ['version 2', (order: Order): EventEnvelope => envelope(Topics.OrderFailed, merchant, failed(order))],
    ['version 1 (the old webhook-body shape)', failedV1],
  ])('keeps a reference closed when order.failed (%s) overtakes its order.created', async (_v, event) => {
    const order = newOrder();
    await produce(producer, event(order), order.orderUuid);
    await waitFor(async () => (await referenceStatus(order)) === 'CLOSED', {
      timeoutMs: 30_000,
      description: 'closed row',
    });
    const [closed] = await t.dataSource.query(
      `SELECT amount FROM payments.open_references WHERE order_uuid = $1`,
      [order.orderUuid],
    );
    expect(closed.amount).toBe('100.50');
    const late = await announce(order);
    await waitFor(
      async () =>
        (await t.dataSource.query(`SELECT 1 FROM payments.inbox WHERE event_id = $1`, [late.id])).length > 0,
      { timeoutMs: 30_000, description: 'late order.created handled' },
    );
    const res = await credit({ reference: order.reference });
    expect((await creditRow(res.json().bankTransactionId)).match_status).toBe('DUPLICATE');
    expect(await referenceStatus(order)).toBe('CLOSED');
    expect(await publishedCount(order.orderUuid)).toBe(0);
  });

  it('holds a credit the amount policy refuses, as for a bank statement: 0.01 EUR never completes a 100 EUR order', async () => {
    const order = newOrder();
    await announce(order);
    await referenceOpen(order);
    const res = await credit({ reference: order.reference, amount: 0.01 });
    expect(res.statusCode).toBe(202);
    expect(res.json<{ hint?: string }>().hint).toMatch(/payment policies hold this credit/);
    const rows: { status: string; reason: string }[] = await t.dataSource.query(
      `SELECT match_status AS status, suspense_reason AS reason FROM payments.bank_transactions WHERE id = $1`,
      [res.json<{ bankTransactionId: string }>().bankTransactionId],
    );
    expect(rows).toEqual([{ status: 'UNMATCHED', reason: 'AMOUNT_BELOW_MINIMUM' }]);
    expect(await referenceStatus(order)).toBe('OPEN');
  });

  it('writes credits that arrive together in one transaction, each on its own terms', async () => {
    const orders = Array.from({ length: 6 }, newOrder);
    await Promise.all(orders.map((o) => announce(o)));
    await Promise.all(orders.map(referenceOpen));
    const [paid, twice, rejected, held, elsewhere, alsoPaid] = orders as [
      Order,
      Order,
      Order,
      Order,
      Order,
      Order,
    ];
    const shared = jest.spyOn(BankTransactionsRepository.prototype, 'insertManyAndLockMerchantReferences');
    try {
      const sent = [
        credit({ reference: paid.reference }),
        credit({ reference: twice.reference }),
        credit({ reference: twice.reference, amount: 7 }),
        credit({ reference: rejected.reference, status: 'REJECTED' }),
        credit({ reference: held.reference, amount: 0.01 }),
        credit({ reference: elsewhere.reference }, randomUUID()), // not the caller's order
        credit({ reference: generateRfReference() }), // no such order
        credit({ remittanceInformation: `invoice ${alsoPaid.reference.toLowerCase()}` }),
      ];
      const answers = await Promise.all(sent);
      expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(202));
      // some of them went together (two go at once, the rest wait and share)
      expect(shared.mock.calls.some((call) => call[1].length > 1)).toBe(true);
      // and each shared statement succeeded (a failed one would have been written again credit by credit)
      await Promise.all(shared.mock.results.map((r) => r.value));
      const rows = await Promise.all(answers.map((a) => creditRow(a.json().bankTransactionId)));
      const byCredit = rows.map((r) => [r.match_status, r.matched_order_uuid]);
      expect(byCredit[0]).toEqual(['MATCHED', paid.orderUuid]);
      // one of the two credits of one reference pays, the other is a duplicate of it
      expect([byCredit[1], byCredit[2]].map((r) => r[0]).sort()).toEqual(['DUPLICATE', 'MATCHED']);
      expect(byCredit[3]).toEqual(['MATCHED', rejected.orderUuid]);
      expect(byCredit[4]).toEqual(['UNMATCHED', null]);
      expect(answers[4]?.json<{ hint?: string }>().hint).toMatch(/payment policies hold this credit/);
      expect(byCredit[5]).toEqual(['UNMATCHED', null]);
      expect(byCredit[6]).toEqual(['UNMATCHED', null]);
      expect(byCredit[7]).toEqual(['MATCHED', alsoPaid.orderUuid]);
      await collector.waitFor(Topics.PaymentConfirmed, paid.orderUuid);
      await collector.waitFor(Topics.PaymentConfirmed, twice.orderUuid);
      await collector.waitFor(Topics.PaymentConfirmed, alsoPaid.orderUuid);
      await collector.waitFor(Topics.PaymentFailed, rejected.orderUuid);
      expect(await referenceStatus(held)).toBe('OPEN');
      expect(await referenceStatus(elsewhere)).toBe('OPEN');
      for (const order of [paid, twice, rejected, alsoPaid])
        expect(await publishedCount(order.orderUuid)).toBe(1);
    } finally {
      shared.mockRestore();
    }
  });
});
