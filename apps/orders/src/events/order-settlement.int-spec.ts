import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { EventMap, EventType, Topics } from '@onramp/contracts';
import { OrdersRepository, SERVICE_DATABASE } from '@onramp/orders-feature';
import { openServiceDataSource } from '@onramp/persistence';
import { eventsAbout, publishedEvents, TopicRecorder, waitFor } from '@onramp/testing';

import { EventPublisher } from '../testing/event-publisher';
import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';
import { postOrder } from '../testing/post-order';
import {
  ADDRESS,
  CreatedOrder,
  ISO_MILLIS,
  paymentConfirmed,
  transferSucceeded,
  txHash,
} from '../testing/settlement-fixtures';

describe('order settlement events (integration)', () => {
  let t: OrdersTestApp;
  let recorder: TopicRecorder;
  let publisher: EventPublisher;
  let db: Client;
  const merchant = randomUUID();
  const user = randomUUID();

  const createOrder = async (amount = '100.10'): Promise<CreatedOrder> => {
    const res = await postOrder(
      t,
      { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      Number(amount),
      user,
    );
    expect(res.statusCode).toBe(201);
    return res.json();
  };
  const details = async (uuid: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/orders/${uuid}/payment-details`,
        headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      })
    ).json();
  const send = async <K extends EventType>(
    type: K,
    data: EventMap[K] & { orderUuid: string },
    merchantId = merchant,
  ) => {
    const envelope = publisher.envelope(type, merchantId, data);
    await publisher.publish(envelope, data.orderUuid);
    return envelope;
  };
  const handled = (eventId: string) =>
    waitFor(
      async () =>
        (await db.query(`SELECT 1 FROM orders.inbox WHERE event_id = $1`, [eventId])).rowCount === 1,
      {
        timeoutMs: 60_000,
        description: `event ${eventId} to be handled`,
      },
    );
  // payment.failed for the order, handled: the order FAILED, nothing paid.
  const failPayment = async (order: CreatedOrder) => {
    const rejected = await send(Topics.PaymentFailed, {
      orderUuid: order.uuid,
      bankTransactionId: randomUUID(),
      reference: order.reference,
      payedAmount: '0',
      reason: 'SEPA credit rejected by the bank',
    });
    await handled(rejected.id);
  };
  // What orders published about the order besides order.created (the relay deletes what it published).
  const terminalEvents = async (uuid: string) =>
    eventsAbout(
      await publishedEvents((sql) => db.query(sql), 'orders', [Topics.OrderCompleted, Topics.OrderFailed]),
      [uuid],
    ).filter((e) => e.key === uuid);
  beforeAll(async () => {
    [t, recorder, publisher] = await Promise.all([
      startOrdersTestApp(),
      TopicRecorder.start([
        Topics.OrderCompleted,
        Topics.OrderFailed,
        'transfer.succeeded.dlq',
        'payment.confirmed.dlq',
      ]),
      EventPublisher.start(),
    ]);
    t.kyc.users.set(user, { merchantId: merchant, status: 'APPROVED' });
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await Promise.all([recorder?.stop(), publisher?.stop()]);
    await t?.close();
  });

  it('records the payment, then completes on transfer.succeeded and publishes the SPEC body', async () => {
    const order = await createOrder();
    const paid = await send(Topics.PaymentConfirmed, paymentConfirmed(order));
    await handled(paid.id);
    expect(await details(order.uuid)).toMatchObject({
      status: 'CREATED',
      orderStatus: 'CREATED',
      payedAmount: 100.1,
    });

    const transfer = transferSucceeded(order);
    await send(Topics.TransferSucceeded, transfer);
    const published = await recorder.waitForEvent(
      'order.completed',
      (e) => e.key === order.uuid && e.topic === 'order.completed',
    );
    // The facts, amounts as decimal strings (webhook-dispatch makes the webhook body of them).
    const data = published.envelope.data as Record<string, unknown>;
    expect(data).toEqual({
      orderUuid: order.uuid,
      kycUserUuid: user,
      amount: '100.10',
      currency: 'EUR',
      reference: order.reference,
      recipientAddress: ADDRESS,
      payedAmount: '100.10',
      payerAccountHolderName: 'Jane Doe',
      fxRateBase: '1.08',
      fxRateEffective: '1.0692',
      fxRateUpdatedAt: '2025-03-01T11:59:00.000Z',
      sentTokenAmount: '107.02692',
      sentTokenCurrency: 'USDC',
      transactionHash: transfer.transactionHash,
      message: `Payment of 100.10 EUR received; 107.02692 USDC sent to ${ADDRESS}`,
      completedAt: expect.stringMatching(ISO_MILLIS),
    });
    expect(published.envelope).toMatchObject({ merchantId: merchant, version: 2 });

    expect(await details(order.uuid)).toMatchObject({
      status: 'COMPLETED',
      orderStatus: 'COMPLETED',
      payedAmount: 100.1,
      sentTokenAmount: 107.02692,
      transactionHash: transfer.transactionHash,
      completedAt: data.completedAt,
    });
    const history = await db.query(
      `SELECT from_status, to_status FROM orders.order_status_history WHERE order_uuid = $1 ORDER BY id`,
      [order.uuid],
    );
    expect(history.rows).toEqual([
      { from_status: null, to_status: 'CREATED' },
      { from_status: 'CREATED', to_status: 'COMPLETED' },
    ]);
  });

  it('ignores a redelivered event and any event for an order already terminal', async () => {
    const order = await createOrder();
    const first = await send(Topics.TransferSucceeded, transferSucceeded(order));
    await handled(first.id);
    const before = await details(order.uuid);

    await publisher.publish(first, order.uuid); // the same event again, same id
    const late = await send(Topics.TransferFailed, {
      orderUuid: order.uuid,
      transactionHash: '',
      payedAmount: '100.10',
      reason: 'too late',
    });
    const lateOther = await send(Topics.TransferSucceeded, transferSucceeded(order)); // same partition as the redelivery, after it
    await Promise.all([handled(late.id), handled(lateOther.id)]);

    expect(await details(order.uuid)).toEqual(before);
    expect((await terminalEvents(order.uuid)).map((r) => r.topic)).toEqual(['order.completed']);
    const transitions = await db.query(
      `SELECT count(*)::int AS n FROM orders.order_status_history WHERE order_uuid = $1`,
      [order.uuid],
    );
    expect(transitions.rows[0].n).toBe(2);
  });

  it('fails the order on payment.failed: nothing paid, nothing sent, no transaction', async () => {
    const order = await createOrder('55');
    await send(Topics.PaymentFailed, {
      orderUuid: order.uuid,
      bankTransactionId: randomUUID(),
      reference: order.reference,
      payedAmount: '0',
      reason: 'SEPA credit rejected by the bank',
    });
    const published = await recorder.waitForEvent(
      'order.failed',
      (e) => e.key === order.uuid && e.topic === 'order.failed',
    );
    const data = published.envelope.data as Record<string, unknown>;
    expect(data).toEqual({
      orderUuid: order.uuid,
      kycUserUuid: user,
      amount: '55.00',
      currency: 'EUR',
      reference: order.reference,
      recipientAddress: ADDRESS,
      payedAmount: '0',
      sentTokenAmount: '0',
      sentTokenCurrency: null,
      transactionHash: '',
      reason: 'SEPA credit rejected by the bank',
      failedAt: expect.stringMatching(ISO_MILLIS),
    });
    expect(await details(order.uuid)).toMatchObject({
      status: 'FAILED',
      orderStatus: 'FAILED',
      failureReason: 'SEPA credit rejected by the bank',
      failedAt: data.failedAt,
    });
  });

  it('fails the order on transfer.failed, keeping what was paid and the reverted transaction', async () => {
    const order = await createOrder();
    await send(Topics.PaymentConfirmed, paymentConfirmed(order));
    const hash = txHash();
    await send(Topics.TransferFailed, {
      orderUuid: order.uuid,
      transactionHash: hash,
      payedAmount: '100.10',
      reason: 'USDC transfer reverted',
    });
    const published = await recorder.waitForEvent(
      'order.failed',
      (e) => e.key === order.uuid && e.topic === 'order.failed',
    );
    expect(published.envelope.data).toMatchObject({
      payedAmount: '100.10',
      sentTokenAmount: '0',
      sentTokenCurrency: null,
      transactionHash: hash,
      reason: 'USDC transfer reverted',
    });
    expect(published.envelope.data).not.toHaveProperty('payerAccountHolderName');
    expect(await details(order.uuid)).toMatchObject({
      status: 'FAILED',
      transactionHash: hash,
      failureReason: 'USDC transfer reverted',
    });
  });

  it('never both completes and fails one order', async () => {
    const order = await createOrder();
    const [a, b] = await Promise.all([
      send(Topics.TransferSucceeded, transferSucceeded(order)),
      send(Topics.TransferFailed, {
        orderUuid: order.uuid,
        transactionHash: '',
        payedAmount: '100.10',
        reason: 'RPC error',
      }),
    ]);
    await Promise.all([handled(a.id), handled(b.id)]);
    const terminal = await terminalEvents(order.uuid);
    expect(terminal).toHaveLength(1);
    expect((await details(order.uuid)).status).toBe(
      terminal[0].topic === 'order.completed' ? 'COMPLETED' : 'FAILED',
    );
  });

  it('dead-letters an event that names another merchant order and leaves the order alone', async () => {
    const order = await createOrder();
    const forged = await send(Topics.TransferSucceeded, transferSucceeded(order), randomUUID());
    const dead = await recorder.waitForEvent(
      'dead letter',
      // other suites' apps share the broker and may dead-letter it too, for their own reasons
      (e) =>
        e.topic === 'transfer.succeeded.dlq' &&
        e.envelope.id === forged.id &&
        e.headers['dlq-consumer'] === t.consumerGroup,
    );
    expect(dead.headers['dlq-error']).toContain("another merchant's order");
    expect((await details(order.uuid)).status).toBe('CREATED');
  });

  // A run of payment.confirmed in one consumer batch is one statement (EventConsumer's prepareRun):
  // each event gets what its own update would have answered.
  it('records a run of payments in one statement, answering each as its own update would', async () => {
    const [open, failed, other] = [await createOrder('10'), await createOrder('20'), await createOrder('30')];
    await failPayment(failed);
    const ds = await openServiceDataSource({ ...SERVICE_DATABASE, url: t.databaseUrl, migrations: [] });
    try {
      const payment = (o: CreatedOrder, merchantId: string, payedAmount: string) => ({
        uuid: o.uuid,
        merchantId,
        payedAmount,
        payerAccountHolderName: 'Jane Doe',
      });
      const answers = await ds.transaction((m) =>
        t.app.get(OrdersRepository).recordPayments(
          m,
          [
            payment(open, merchant, '10.00'),
            payment(other, randomUUID(), '30.00'), // another merchant's order
            payment(failed, merchant, '20.00'), // no longer CREATED
            payment(open, merchant, '11.00'), // a second payment of the first: left to its handler
          ],
          new Date(),
        ),
      );
      expect(answers).toEqual([
        {
          uuid: open.uuid,
          merchantId: merchant,
          kycUserUuid: user,
          amount: '10.00',
          currency: 'EUR',
          reference: open.reference,
          recipientAddress: ADDRESS,
        },
        undefined,
        undefined,
        undefined,
      ]);
      const paid = await db.query(
        `SELECT uuid, payed_amount::text AS paid FROM orders.orders WHERE uuid = ANY($1) ORDER BY amount`,
        [[open.uuid, failed.uuid, other.uuid]],
      );
      expect(paid.rows).toEqual([
        { uuid: open.uuid, paid: '10.00' },
        { uuid: failed.uuid, paid: '0.00' }, // as its payment.failed left it
        { uuid: other.uuid, paid: null },
      ]);
    } finally {
      await ds.destroy();
    }
  });

  // A run of transfer.succeeded in one consumer batch moves its orders in one statement, with their
  // history rows and events, each as markCompleted alone would.
  it('completes a run of orders in one statement, each with its history row and event', async () => {
    const [open, done] = [await createOrder('40'), await createOrder('50')];
    await failPayment(done);
    const ds = await openServiceDataSource({ ...SERVICE_DATABASE, url: t.databaseUrl, migrations: [] });
    try {
      const move = (o: CreatedOrder) => {
        const eventId = randomUUID();
        return {
          uuid: o.uuid,
          facts: {
            payedAmount: '40.00',
            payerAccountHolderName: 'Jane Doe',
            sentTokenAmount: '42.77',
            transactionHash: txHash(),
            fxRateBase: '1.08',
            fxRateEffective: '1.0692',
            fxRateUpdatedAt: new Date('2025-03-01T11:59:00Z'),
          },
          change: { reason: 'USDC transfer succeeded', eventId: randomUUID(), at: new Date() },
          event: {
            table: '"orders"."outbox"',
            values: [
              eventId,
              'order.completed',
              o.uuid,
              JSON.stringify({ id: eventId }),
              '{"x":"1"}',
              '7',
            ] as const,
          },
        };
      };
      const moves = [move(open), move(done), move(open)];
      const { answers, outbox } = await ds.transaction(async (m) => ({
        answers: await t.app.get(OrdersRepository).markCompletedMany(m, moves),
        // read before the commit: the relay takes the rows once committed
        outbox: await m.query(
          `SELECT event_id AS id, topic, key, envelope ->> 'id' AS "envelopeId", headers ->> 'x' AS header, key_hash AS hash
           FROM orders.outbox WHERE event_id = ANY($1) ORDER BY seq`,
          [moves.map((x) => x.event.values[0])],
        ),
      }));
      // the second entry of `open` is left to its handler, which finds the order COMPLETED
      expect(answers).toEqual([true, false, undefined]);
      const id = moves[0]!.event.values[0];
      expect(outbox).toEqual([
        { id, topic: 'order.completed', key: open.uuid, envelopeId: id, header: '1', hash: 7 },
      ]);
      expect(await details(open.uuid)).toMatchObject({ status: 'COMPLETED', sentTokenAmount: 42.77 });
      const history = await db.query(
        `SELECT order_uuid, to_status, event_id FROM orders.order_status_history
         WHERE order_uuid = ANY($1) AND to_status = 'COMPLETED'`,
        [[open.uuid, done.uuid]],
      );
      expect(history.rows).toEqual([
        { order_uuid: open.uuid, to_status: 'COMPLETED', event_id: moves[0]!.change.eventId },
      ]);
    } finally {
      await ds.destroy();
    }
  });

  it('records payment.confirmed only on an order of its merchant that is still CREATED', async () => {
    const failed = await createOrder('55');
    await failPayment(failed);
    const afterFailure = await details(failed.uuid);
    const late = await send(Topics.PaymentConfirmed, paymentConfirmed(failed));
    await handled(late.id);
    expect(await details(failed.uuid)).toEqual(afterFailure);

    const order = await createOrder();
    const unpaid = await details(order.uuid);
    const forged = await send(Topics.PaymentConfirmed, paymentConfirmed(order), randomUUID());
    const dead = await recorder.waitForEvent(
      'dead letter',
      (e) =>
        e.topic === 'payment.confirmed.dlq' &&
        e.envelope.id === forged.id &&
        e.headers['dlq-consumer'] === t.consumerGroup,
    );
    expect(dead.headers['dlq-error']).toContain("another merchant's order");
    expect(await details(order.uuid)).toEqual(unpaid);
  });

  it('ignores transfer.succeeded for a paid order that another process failed meanwhile', async () => {
    const order = await createOrder();
    const paid = await send(Topics.PaymentConfirmed, paymentConfirmed(order));
    await handled(paid.id);
    // As a second orders process would have, with its own history row.
    await db.query(
      `UPDATE orders.orders SET status = 'FAILED', failure_reason = 'elsewhere', failed_at = now()
       WHERE uuid = $1`,
      [order.uuid],
    );
    const before = await details(order.uuid);
    const late = await send(Topics.TransferSucceeded, transferSucceeded(order));
    await handled(late.id);
    expect(await details(order.uuid)).toEqual(before);
    expect(await terminalEvents(order.uuid)).toEqual([]);
    const history = await db.query(
      `SELECT to_status FROM orders.order_status_history WHERE order_uuid = $1 ORDER BY id`,
      [order.uuid],
    );
    expect(history.rows).toEqual([{ to_status: 'CREATED' }]);
  });
});
