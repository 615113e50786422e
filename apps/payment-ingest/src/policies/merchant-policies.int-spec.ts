import { randomUUID } from 'node:crypto';

import { EventEnvelope, OrderCreatedV1 } from '@onramp/contracts';
import { OrderEventsHandler } from '@onramp/payments-feature';
import { generateRfReference } from '@onramp/sepa';
import { operatorHeaders } from '@onramp/testing';

import { collectionCamt054, uploadStatement } from '../testing/bank-statements';
import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';

describe('payment-ingest: per-merchant payment policies (integration)', () => {
  let t: PaymentIngestTestApp;
  const merchant = randomUUID();
  const url = `/admin/payment-policies/${merchant}`;
  const put = (payload: unknown) =>
    t.app.inject({ method: 'PUT', url, headers: operatorHeaders('PUT', url), payload: payload as object });

  beforeAll(async () => {
    t = await startPaymentIngestTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts on the defaults, changes by operator, refuses nonsense, and EXACT sends a tolerated overpayment to suspense', async () => {
    const initial = await t.app.inject({ method: 'GET', url, headers: operatorHeaders('GET', url) });
    expect(initial.statusCode).toBe(200);
    expect(initial.json()).toMatchObject({
      amountPolicy: 'FLEXIBLE',
      payerNamePolicy: 'WARN',
      payerNamePolicyIsDefault: true,
    });

    expect((await put({ amountPolicy: 'SOMETIMES' })).statusCode).toBe(400);
    expect((await put({})).statusCode).toBe(400);
    const set = await put({ amountPolicy: 'EXACT', payerNamePolicy: 'OFF' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      amountPolicy: 'EXACT',
      payerNamePolicy: 'OFF',
      payerNamePolicyIsDefault: false,
    });
    const back = await put({ payerNamePolicy: null });
    expect(back.json()).toMatchObject({
      amountPolicy: 'EXACT',
      payerNamePolicy: 'WARN',
      payerNamePolicyIsDefault: true,
    });

    const reference = generateRfReference();
    const data = {
      orderUuid: randomUUID(),
      reference,
      amount: '200.00',
      currency: 'EUR',
      recipientAddress: '0x' + '4'.repeat(40),
      kycUserUuid: randomUUID(),
    };
    const created = {
      id: randomUUID(),
      type: 'order.created',
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId: merchant,
      data,
    };
    await t.dataSource.transaction((m) =>
      t.app
        .get(OrderEventsHandler)
        .onOrderCreated(created as unknown as EventEnvelope<'order.created', OrderCreatedV1>, m),
    );
    const xml = collectionCamt054(`POLICY-${randomUUID()}`, [
      {
        accountServicerRef: 'P1',
        amount: '205.00',
        debtorName: 'Ada Lovelace',
        debtorIban: 'DE02120300000000202051',
        structuredReference: reference,
      },
    ]);
    const upload = await uploadStatement(t, xml);
    expect(upload.json()).toMatchObject({ creditsBooked: 1, creditsMatched: 0 });
    const rows: { reason: string }[] = await t.dataSource.query(
      `SELECT suspense_reason AS reason FROM payments.bank_transactions WHERE account_servicer_ref = 'P1'`,
    );
    expect(rows).toEqual([{ reason: 'AMOUNT_NOT_EXACT' }]);
    const audit: { action: string }[] = await t.dataSource.query(
      `SELECT action FROM payments.admin_audit WHERE target = $1`,
      [merchant],
    );
    expect(audit.map((a) => a.action)).toEqual(['payment-policy.set', 'payment-policy.set']);
  });
});
