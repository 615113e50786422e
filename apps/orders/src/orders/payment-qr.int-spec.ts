import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';
import { OrderPaymentDetails, postOrder } from '../testing/post-order';

describe('GET /orders/:uuid/payment-qr and the EPC payload of payment details (integration)', () => {
  let t: OrdersTestApp;
  const merchant = randomUUID();
  const auth = (merchantId = merchant) => ({ authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` });

  beforeAll(async () => {
    t = await startOrdersTestApp({ COLLECTION_ACCOUNT_NAME: 'Zoë Onramp Collections GmbH' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives the beneficiary name and the GiroCode payload, and draws it as an SVG for the merchant only', async () => {
    const kycUserUuid = randomUUID();
    t.kyc.users.set(kycUserUuid, { merchantId: merchant, status: 'APPROVED' });
    const created = await postOrder(t, auth(), 100.5, kycUserUuid);
    expect(created.statusCode).toBe(201);
    const order = created.json<OrderPaymentDetails>();
    expect(order.beneficiaryName).toBe('Zoë Onramp Collections GmbH');
    expect(order.epcQrPayload.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      order.bic,
      'Zoë Onramp Collections GmbH',
      order.iban,
      'EUR100.5',
      '',
      order.reference,
    ]);

    const qr = await t.app.inject({
      method: 'GET',
      url: `/orders/${order.uuid}/payment-qr`,
      headers: auth(),
    });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(qr.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 (\d+) \1"/);
    expect(qr.body).toContain(`reference ${order.reference}`);

    const foreign = await t.app.inject({
      method: 'GET',
      url: `/orders/${order.uuid}/payment-qr`,
      headers: auth(randomUUID()),
    });
    expect(foreign.statusCode).toBe(404);
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/orders/not-a-uuid/payment-qr',
      headers: auth(),
    });
    expect(malformed.statusCode).toBe(400);

    // a finished order takes no payment: no payload, and no QR code to pay it with
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    await db.query(
      `UPDATE orders.orders SET status = 'FAILED', failed_at = now(), failure_reason = 'order expired' WHERE uuid = $1`,
      [order.uuid],
    );
    await db.end();
    const details = await t.app.inject({
      method: 'GET',
      url: `/orders/${order.uuid}/payment-details`,
      headers: auth(),
    });
    expect(details.json()).not.toHaveProperty('epcQrPayload');
    const finished = await t.app.inject({
      method: 'GET',
      url: `/orders/${order.uuid}/payment-qr`,
      headers: auth(),
    });
    expect(finished.statusCode).toBe(409);
    expect(finished.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
