import { randomUUID } from 'node:crypto';

import { generateRfReference } from '@onramp/sepa';

import { PaymentIngestTestApp, startPaymentIngestTestApp } from '../testing/payment-ingest-test-app';
import { postSepaCredit } from '../testing/sandbox-credits';

describe('payment-ingest: sandbox bank request validation (integration)', () => {
  let t: PaymentIngestTestApp;
  const merchant = randomUUID();
  const credit = (body: Record<string, unknown>, merchantId = merchant) =>
    postSepaCredit(t, merchantId, body);

  beforeAll(async () => {
    t = await startPaymentIngestTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 400 problem+json for invalid credits, naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ amount: 0 }, 'amount'],
      [{ amount: -5 }, 'amount'],
      [{ amount: 10.123 }, 'amount'],
      [{ amount: '1.001' }, 'amount'],
      [{ amount: 'ten' }, 'amount'],
      [{ amount: null }, 'amount'],
      [{ currency: 'USD' }, 'currency'],
      [{ payerName: '' }, 'payerName'],
      [{ payerName: 42 }, 'payerName'],
      [{ payerIban: 'not-an-iban' }, 'payerIban'],
      [{ status: 'PENDING' }, 'status'],
      [{ status: null }, 'status'],
      [{ payerIban: null }, 'payerIban'],
      [{ payerName: 'Jane\u0000Doe' }, 'payerName'],
      [{ remittanceInformation: 'RF18\u0007' }, 'remittanceInformation'],
      [{ remittanceInformation: 'x'.repeat(141) }, 'remittanceInformation'],
    ];
    for (const [patch, field] of cases) {
      const res = await credit({ reference: generateRfReference(), ...patch });
      expect([JSON.stringify(patch), res.statusCode]).toEqual([JSON.stringify(patch), 400]);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const { payerName: _omit, ...noPayer } = { amount: 1, currency: 'EUR', payerName: 'x' };
    const missing = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sepa-credits',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      payload: noPayer,
    });
    expect(missing.statusCode).toBe(400);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sepa-credits',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}`, 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('requires a merchant token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/sandbox/sepa-credits',
      payload: { amount: 1, currency: 'EUR', payerName: 'x' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('payment-ingest outside sandbox mode (integration)', () => {
  let t: PaymentIngestTestApp;

  beforeAll(async () => {
    // production refuses the development payer-data key
    t = await startPaymentIngestTestApp({
      ONRAMP_MODE: 'production',
      PAYER_DATA_ENCRYPTION_KEY: 'c'.repeat(64),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no sandbox bank: 404, even with a valid token', async () => {
    const res = await postSepaCredit(t, randomUUID(), { reference: generateRfReference(), amount: 1 });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const anonymous = await t.app.inject({ method: 'POST', url: '/sandbox/sepa-credits', payload: {} });
    expect(anonymous.statusCode).toBe(404);
  });
});
