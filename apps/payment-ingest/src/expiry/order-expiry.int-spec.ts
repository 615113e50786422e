import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { EventEnvelope, OrderCreatedV1, OrderFailedV2, Topics } from '@onramp/contracts';
import { ExpireOrdersUseCase, OrderEventsHandler } from '@onramp/payments-feature';
import { eventsAbout, publishedEvents } from '@onramp/testing';

import { uploadStatement } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';

const FIXTURES = join(__dirname, '../../../../libs/payments/domain/fixtures');
const DAY = 86_400_000;
// paid by the first credit of camt054-001.02-de-sparkasse.xml (100.00 EUR, structured reference)
const LATE_REFERENCE = 'RF98K7QW4M2XZP9D3HB8NT';
const RECIPIENT = '0x' + '2'.repeat(40);

describe('payment-ingest: unpaid orders expire after ORDER_TTL (integration)', () => {
  let t: PaymentIngestTestApp;
  let expire: ExpireOrdersUseCase;
  let handler: OrderEventsHandler;
  const merchant = randomUUID();

  const orderCreated = (
    orderUuid: string,
    reference: string,
    occurredAt: Date,
  ): EventEnvelope<'order.created', OrderCreatedV1> =>
    ({
      id: randomUUID(),
      type: 'order.created',
      version: 1,
      occurredAt: occurredAt.toISOString(),
      merchantId: merchant,
      data: { orderUuid, reference, amount: '100.00', currency: 'EUR', recipientAddress: RECIPIENT },
    }) as unknown as EventEnvelope<'order.created', OrderCreatedV1>;
  const statusOf = async (orderUuid: string): Promise<string> =>
    (
      (await t.dataSource.query(`SELECT status FROM payments.open_references WHERE order_uuid = $1`, [
        orderUuid,
      ])) as {
        status: string;
      }[]
    )[0]!.status;
  // What payment-ingest published about these orders (the relay deletes what it published).
  const published = async (topic: string, orders: string[]) =>
    eventsAbout(await publishedEvents((sql) => t.dataSource.query(sql), 'payments', [topic]), orders);
  const failures = async (
    orders: string[],
  ): Promise<Array<{ order: string; reason: string; payed: string; tx: string | null }>> =>
    (await published(Topics.PaymentFailed, orders)).map((e) => {
      const data = e.envelope.data as {
        orderUuid: string;
        reason: string;
        payedAmount: string;
        bankTransactionId?: string;
      };
      return {
        order: data.orderUuid,
        reason: data.reason,
        payed: data.payedAmount,
        tx: data.bankTransactionId ?? null,
      };
    });

  beforeAll(async () => {
    t = await startPaymentIngestTestApp({ ORDER_TTL: '7d' });
    expire = t.app.get(ExpireOrdersUseCase);
    handler = t.app.get(OrderEventsHandler);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('fails an order unpaid for ORDER_TTL exactly once, counted from its creation, and sends a late payment to suspense', async () => {
    const now = new Date();
    const old = randomUUID();
    const fresh = randomUUID();
    // order.created delivered today for an order created eight days ago: the TTL counts from creation
    await t.dataSource.transaction((m) =>
      handler.onOrderCreated(orderCreated(old, LATE_REFERENCE, new Date(now.getTime() - 8 * DAY)), m),
    );
    await t.dataSource.transaction((m) =>
      handler.onOrderCreated(
        orderCreated(fresh, 'RF70T3MZ8QH2WXK9PD4RNA', new Date(now.getTime() - 6 * DAY)),
        m,
      ),
    );

    expect(await expire.execute(now)).toBe(1);
    expect(await statusOf(old)).toBe('EXPIRED');
    expect(await statusOf(fresh)).toBe('OPEN');
    expect(await failures([old, fresh])).toEqual([
      { order: old, reason: 'order expired', payed: '0', tx: null },
    ]);

    // a second sweep (another replica, a restart) finds nothing: one payment.failed per order
    expect(await expire.execute(now)).toBe(0);
    expect(await failures([old, fresh])).toHaveLength(1);
    // a day later the other one is due
    expect(await expire.execute(new Date(now.getTime() + DAY + 1000))).toBe(1);

    // the order.failed that the expiry causes leaves the reference EXPIRED
    const failed = {
      id: randomUUID(),
      type: 'order.failed',
      version: 1,
      occurredAt: now.toISOString(),
      merchantId: merchant,
      data: {
        orderUuid: old,
        reference: LATE_REFERENCE,
        amount: 100,
        currency: 'EUR',
        recipientAddress: RECIPIENT,
      },
    } as unknown as EventEnvelope<'order.failed', OrderFailedV2>;
    await t.dataSource.transaction((m) => handler.closeReference(failed, m));
    expect(await statusOf(old)).toBe('EXPIRED');

    // the payer's money arrives after all: it pays nothing and waits for the operator
    const upload = await uploadStatement(
      t,
      readFileSync(join(FIXTURES, 'camt054-001.02-de-sparkasse.xml'), 'utf8'),
    );
    expect(upload.statusCode).toBe(201);
    const late: { amount: string; reason: string }[] = await t.dataSource.query(
      `SELECT amount, suspense_reason AS reason FROM payments.bank_transactions WHERE matched_order_uuid = $1 OR matched_reference = $2`,
      [old, LATE_REFERENCE],
    );
    expect(late).toEqual([{ amount: '100.00', reason: 'ORDER_EXPIRED' }]);
    expect(await published(Topics.PaymentConfirmed, [old])).toHaveLength(0);
  });
});
