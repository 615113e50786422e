import { randomUUID } from 'node:crypto';

import { Topics } from '@onramp/contracts';
import type { AdminOrderDetails, AdminOrderResponse } from '@onramp/orders-feature';
import { operatorHeaders, waitFor } from '@onramp/testing';

import { EventPublisher } from '../testing/event-publisher';
import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';
import { postOrder } from '../testing/post-order';

describe('admin orders API (integration)', () => {
  let t: OrdersTestApp;
  let publisher: EventPublisher;
  const merchantA = randomUUID();
  const merchantB = randomUUID();

  const admin = (url: string, headers: Record<string, string> = operatorHeaders('GET', url)) =>
    t.app.inject({ method: 'GET', url, headers });
  const createFor = async (merchantId: string, amount: number) => {
    const kycUserUuid = randomUUID();
    t.kyc.users.set(kycUserUuid, { merchantId, status: 'APPROVED' });
    const res = await postOrder(
      t,
      { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` },
      amount,
      kycUserUuid,
    );
    expect(res.statusCode).toBe(201);
    return res.json<{ uuid: string; reference: string }>();
  };

  beforeAll(async () => {
    [t, publisher] = await Promise.all([startOrdersTestApp(), EventPublisher.start()]);
  });
  afterAll(async () => {
    await publisher?.stop();
    await t?.close();
  });

  it("refuses requests without the gateway's credential, and merchant tokens, with 401 problem+json", async () => {
    const merchantToken = `Bearer ${t.issuer.tokenFor(merchantA)}`;
    for (const res of [
      await admin('/admin/orders', {}),
      await admin('/admin/orders', { 'x-admin-key': 'wrong' }),
      await admin('/admin/orders', operatorHeaders('GET', '/admin/merchants')),
      await t.app.inject({ method: 'GET', url: '/admin/orders', headers: { authorization: merchantToken } }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect((await admin('/admin/orders')).statusCode).toBe(200);
  });

  it('shows any merchant order with its merchant and full status history', async () => {
    const order = await createFor(merchantB, 42);
    const failed = publisher.envelope(Topics.PaymentFailed, merchantB, {
      orderUuid: order.uuid,
      bankTransactionId: randomUUID(),
      reference: order.reference,
      payedAmount: '0',
      reason: 'SEPA credit rejected by the bank',
    });
    await publisher.publish(failed, order.uuid);

    const details = await waitFor(
      async () => {
        const res = await admin(`/admin/orders/${order.uuid.toUpperCase()}`);
        const body = res.json<AdminOrderDetails>();
        return res.statusCode === 200 && body.status === 'FAILED' ? body : undefined;
      },
      { timeoutMs: 60_000, description: 'the order to fail' },
    );
    expect(details).toMatchObject({
      uuid: order.uuid,
      merchantId: merchantB,
      amount: 42,
      reference: order.reference,
      failureReason: 'SEPA credit rejected by the bank',
    });
    expect(details.statusHistory).toEqual([
      { from: null, to: 'CREATED', reason: 'order created', eventId: null, at: expect.any(String) },
      {
        from: 'CREATED',
        to: 'FAILED',
        reason: 'SEPA credit rejected by the bank',
        eventId: failed.id,
        at: expect.any(String),
      },
    ]);

    const failedOfB = await admin(`/admin/orders?merchantId=${merchantB}&status=FAILED`);
    expect(failedOfB.json<AdminOrderResponse[]>().map((o) => o.uuid)).toEqual([order.uuid]);
    const createdOfB = await admin(`/admin/orders?merchantId=${merchantB}&status=CREATED`);
    expect(createdOfB.json<AdminOrderResponse[]>().map((o) => o.uuid)).not.toContain(order.uuid);

    const unknown = await admin(`/admin/orders/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect((await admin('/admin/orders/not-a-uuid')).statusCode).toBe(400);
  });

  it('lists orders of every merchant newest first, filtered by merchant and status, paginated', async () => {
    const a1 = await createFor(merchantA, 1);
    const a2 = await createFor(merchantA, 2);
    const b1 = await createFor(merchantB, 3);

    const all = await admin('/admin/orders?limit=3');
    expect(all.statusCode).toBe(200);
    expect(all.json<AdminOrderResponse[]>().map((o) => o.uuid)).toEqual([b1.uuid, a2.uuid, a1.uuid]);
    expect(all.json<AdminOrderResponse[]>()[0]).toMatchObject({ merchantId: merchantB, status: 'CREATED' });

    const ofA = await admin(`/admin/orders?merchantId=${merchantA}&limit=1`);
    expect(ofA.json<AdminOrderResponse[]>().map((o) => o.uuid)).toEqual([a2.uuid]);
    expect(ofA.headers['x-total-count']).toBe('2');
    expect(ofA.headers['link']).toContain(
      `</admin/orders?merchantId=${merchantA}&limit=1&offset=1>; rel="next"`,
    );

    for (const bad of ['?status=PAID', '?merchantId=nope', '?limit=51']) {
      const res = await admin(`/admin/orders${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });
});
