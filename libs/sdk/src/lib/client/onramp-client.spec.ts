import { FakeOnrampApi, problem } from '../../testing/fake-onramp-api';
import { OnrampApiError } from '../http/onramp-api.error';
import { OnrampClient } from './onramp-client';

const CREDS = { merchantId: 'merchant-1', merchantSecret: 's3cret:with-colon' };

describe('OnrampClient', () => {
  let api: FakeOnrampApi;
  let url: string;
  let now: Date;
  const clock = () => now;
  const client = (overrides: Partial<typeof CREDS> = {}) =>
    new OnrampClient({ baseUrl: `${url}/`, kycUrl: url, ...CREDS, ...overrides, clock });

  beforeEach(async () => {
    now = new Date('2025-01-01T00:00:00Z');
    api = new FakeOnrampApi()
      .route('GET', '/orders', () => ({
        status: 200,
        headers: { 'x-total-count': '7' },
        body: [{ uuid: 'o1' }],
      }))
      .route('GET', '/kyc/get-all', () => ({ status: 200, headers: { 'x-total-count': '3' }, body: [] }))
      .route('POST', '/orders/create', (req) => ({
        status: 201,
        body: { uuid: 'o2', echo: JSON.parse(req.body) },
      }))
      .route('POST', '/kyc/add', () => ({ status: 201, body: { uuid: 'u1', status: 'APPROVED' } }));
    url = await api.start();
  });

  afterEach(() => api.stop());

  describe('token', () => {
    it('asks POST /auth/token with HTTP Basic once and reuses the token while it is fresh', async () => {
      const c = client();
      await c.listOrders();
      now = new Date(now.getTime() + 10 * 60_000); // 10 of 15 minutes
      await c.listKycUsers();
      await c.listOrders();
      expect(api.tokenRequests()).toHaveLength(1);
      const basic = Buffer.from('merchant-1:s3cret:with-colon').toString('base64');
      expect(api.tokenRequests()[0]).toMatchObject({
        method: 'POST',
        headers: { authorization: `Basic ${basic}` },
      });
      expect(api.apiRequests().map((r) => r.headers.authorization)).toEqual([
        'Bearer t1',
        'Bearer t1',
        'Bearer t1',
      ]);
    });

    it('fetches a new token shortly before expires_in, without waiting for a 401', async () => {
      const c = client();
      await c.listOrders();
      now = new Date(now.getTime() + (900 - 31) * 1000);
      await c.listOrders();
      expect(api.tokenRequests()).toHaveLength(1);
      now = new Date(now.getTime() + 2000); // inside the 30 s margin
      await c.listOrders();
      expect(api.tokenRequests()).toHaveLength(2);
      expect(api.apiRequests().map((r) => r.headers.authorization)).toEqual([
        'Bearer t1',
        'Bearer t1',
        'Bearer t2',
      ]);
    });

    it('shares one token request between concurrent calls', async () => {
      const c = client();
      await Promise.all([c.listOrders(), c.listOrders(), c.listKycUsers()]);
      expect(api.tokenRequests()).toHaveLength(1);
    });

    it('on a 401 fetches a new token and retries the call once, with the same body', async () => {
      const c = client();
      await c.listOrders();
      api.live.delete('t1'); // revoked or expired early on the server
      const order = await c.createOrder(
        { amount: 10, currency: 'EUR', recepientAddress: '0xabc', kycUserUuid: 'u1' },
        { idempotencyKey: 'k-1' },
      );
      expect(order).toMatchObject({ uuid: 'o2', echo: { amount: 10, kycUserUuid: 'u1' } });
      const creates = api.apiRequests().filter((r) => r.url === '/orders/create');
      expect(creates.map((r) => r.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
      expect(creates[1].body).toBe(creates[0].body);
      expect(creates[1].headers['idempotency-key']).toBe('k-1');
      expect(api.tokenRequests()).toHaveLength(2);
      await c.listOrders();
      expect(api.tokenRequests()).toHaveLength(2); // the new token is cached
    });

    it('retries only once: a second 401 rejects with OnrampApiError', async () => {
      api.route('GET', '/orders', () => problem(401, 'Unauthorized'));
      const c = client();
      const error = await c.listOrders().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OnrampApiError);
      expect(error).toMatchObject({ status: 401 });
      expect(api.apiRequests()).toHaveLength(2);
      expect(api.tokenRequests()).toHaveLength(2);
    });

    it('rejects wrong credentials with a 401 OnrampApiError and never calls the API', async () => {
      const error = await client({ merchantSecret: 'wrong' })
        .listOrders()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'OnrampApiError', status: 401 });
      expect(api.tokenRequests()).toHaveLength(1);
      expect(api.apiRequests()).toHaveLength(0);
    });
  });

  describe('calls', () => {
    it('sends /kyc/* to the KYC host with JSON and an Idempotency-Key, and pages with X-Total-Count', async () => {
      const c = client({});
      const user = await c.createKycUser(
        {
          firstName: 'Ada',
          lastName: 'Lovelace',
          dateOfBirth: '1990-12-10',
          nationality: 'DE',
          email: 'ada@example.com',
          address: { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' },
        },
        { idempotencyKey: 'kyc-1' },
      );
      expect(user).toEqual({ uuid: 'u1', status: 'APPROVED' });
      const add = api.apiRequests()[0];
      expect(add.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'kyc-1' });
      expect(JSON.parse(add.body)).toMatchObject({ firstName: 'Ada', address: { city: 'Berlin' } });

      expect(await c.listOrders({ limit: 2, offset: 4 })).toEqual({ items: [{ uuid: 'o1' }], total: 7 });
      expect(api.apiRequests()[1].url).toBe('/orders?limit=2&offset=4');
      expect(await c.listKycUsers()).toEqual({ items: [], total: 3 });
      expect(api.apiRequests()[2].url).toBe('/kyc/get-all');
    });

    it('escapes path parameters', async () => {
      const error = await client()
        .getPaymentDetails('../admin')
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 404 });
      expect(api.apiRequests()[0].url).toBe('/orders/..%2Fadmin/payment-details');
    });
  });
});
