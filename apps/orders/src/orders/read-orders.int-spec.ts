import { randomUUID } from 'node:crypto';

import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';
import { postOrder } from '../testing/post-order';

describe('GET /orders and /orders/:uuid/payment-details (integration)', () => {
  let t: OrdersTestApp;

  const auth = (merchantId: string) => ({ authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` });
  const createFor = async (merchantId: string, amount: number) => {
    const kycUserUuid = randomUUID();
    t.kyc.users.set(kycUserUuid, { merchantId, status: 'APPROVED' });
    const res = await postOrder(t, auth(merchantId), amount, kycUserUuid);
    expect(res.statusCode).toBe(201);
    return res.json() as { uuid: string; amount: number };
  };

  beforeAll(async () => {
    t = await startOrdersTestApp({ ORDER_MIN_AMOUNT: '0.50', ORDER_MAX_AMOUNT: '500' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401, never 500, to tokens without exp, without typ at+jwt or with a sub that is not a UUID', async () => {
    const merchant = randomUUID();
    const tokens = [
      t.issuer.tokenFor(merchant, { withoutExpiry: true }),
      t.issuer.tokenFor(merchant, { type: 'JWT' }),
      t.issuer.tokenFor(merchant, { type: null }),
      t.issuer.tokenFor('merchant-1'),
      t.issuer.tokenFor(`${merchant}'--`),
    ];
    for (const token of tokens) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/orders',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const good = await t.app.inject({ method: 'GET', url: '/orders', headers: auth(merchant) });
    expect(good.statusCode).toBe(200);
  });

  it('refuses the tokens of a merchant whose secret was rotated, within seconds', async () => {
    const merchant = randomUUID();
    const list = (token: string) =>
      t.app.inject({ method: 'GET', url: '/orders', headers: { authorization: `Bearer ${token}` } });
    const old = t.issuer.tokenFor(merchant, { version: 0 });
    expect((await list(old)).statusCode).toBe(200);
    t.issuer.revokeBelow(merchant, 1);
    const deadline = Date.now() + 15_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await list(old)).statusCode;
    }
    expect(status).toBe(401);
    expect((await list(t.issuer.tokenFor(merchant))).statusCode).toBe(401); // no ver counts as 0
    expect((await list(t.issuer.tokenFor(merchant, { version: 1 }))).statusCode).toBe(200);
  });

  it('hides another merchant order behind 404 and answers 400 for a malformed uuid', async () => {
    const merchant = randomUUID();
    const order = await createFor(merchant, 10);
    const url = `/orders/${order.uuid}/payment-details`;
    expect((await t.app.inject({ method: 'GET', url, headers: auth(merchant) })).statusCode).toBe(200);

    const foreign = await t.app.inject({ method: 'GET', url, headers: auth(randomUUID()) });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).toContain('application/problem+json');
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/orders/${randomUUID()}/payment-details`,
      headers: auth(merchant),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toBe(foreign.json().detail);
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/orders/123/payment-details',
      headers: auth(merchant),
    });
    expect(malformed.statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });

  it('lists only the merchant orders, newest first, paginated with X-Total-Count and Link', async () => {
    const merchant = randomUUID();
    const amounts = [1, 2, 3, 4, 5];
    for (const amount of amounts) await createFor(merchant, amount);
    await createFor(randomUUID(), 7); // someone else's
    const list = (query: string) =>
      t.app.inject({ method: 'GET', url: `/orders${query}`, headers: auth(merchant) });

    const all = await list('');
    expect(all.statusCode).toBe(200);
    expect(all.json().map((o: { amount: number }) => o.amount)).toEqual([5, 4, 3, 2, 1]);
    expect(all.headers['x-total-count']).toBe('5');
    expect(all.json()[0]).toMatchObject({ orderStatus: 'CREATED', status: 'CREATED', currency: 'EUR' });

    const middle = await list('?limit=2&offset=2');
    expect(middle.json().map((o: { amount: number }) => o.amount)).toEqual([3, 2]);
    const link = middle.headers['link'] as string;
    expect(link).toContain('</orders?limit=2&offset=0>; rel="prev"');
    expect(link).toContain('</orders?limit=2&offset=4>; rel="next"');
    expect(link).toContain('</orders?limit=2&offset=4>; rel="last"');

    expect((await list('?offset=5')).json()).toEqual([]);
    for (const bad of ['?limit=51', '?limit=0', '?offset=-1', '?limit=x'])
      expect((await list(bad)).statusCode).toBe(400);
  });

  it('applies configured amount bounds', async () => {
    const merchant = randomUUID();
    expect((await createFor(merchant, 0.5)).amount).toBe(0.5);
    const kycUserUuid = randomUUID();
    t.kyc.users.set(kycUserUuid, { merchantId: merchant, status: 'APPROVED' });
    const tooMuch = await postOrder(t, auth(merchant), 500.01, kycUserUuid);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().errors).toEqual([{ field: 'amount', message: 'amount must be at most 500 EUR' }]);
  });
});
