import { randomUUID } from 'node:crypto';

import { Wallet } from 'ethers';

import {
  call,
  createMerchant,
  fetchToken,
  kycUserBody,
  MerchantApi,
  MerchantCredentials,
} from './support/api-client';
import { e2e } from './support/env';

const PROBLEM = /^application\/problem\+json/;

describe('public API conventions through the gateway', () => {
  let credsA: MerchantCredentials;
  let a: MerchantApi;
  let b: MerchantApi;
  let userA: string;

  beforeAll(async () => {
    credsA = await createMerchant('Merchant A');
    a = new MerchantApi(credsA);
    b = new MerchantApi(await createMerchant('Merchant B'));
    const kyc = await a.request<{ uuid: string }>('kyc', '/kyc/add', { method: 'POST', body: kycUserBody() });
    userA = kyc.body.uuid;
  });

  const orderBody = (overrides: Record<string, unknown> = {}) => ({
    amount: 10,
    currency: 'EUR',
    recepientAddress: Wallet.createRandom().address,
    kycUserUuid: userA,
    ...overrides,
  });

  describe('tokens', () => {
    it('issues a Bearer token on both hosts', async () => {
      for (const host of [e2e.baseUrl(), e2e.kycUrl()]) {
        const res = await fetchToken(credsA, host);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: e2e.tokenTtlSeconds() });
        expect(res.body.access_token.split('.')).toHaveLength(3);
      }
    });

    it('refuses wrong merchant credentials', async () => {
      const res = await fetchToken({ merchantId: credsA.merchantId, merchantSecret: 'wrong' });
      expect(res.status).toBe(401);
    });

    it('answers 401 with WWW-Authenticate for a missing, forged or expired token', async () => {
      const missing = await call(`${e2e.baseUrl()}/orders`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(missing.headers.get('content-type')).toMatch(PROBLEM);

      const token = await a.accessToken();
      const [h, p] = token.split('.');
      const forged = `${h}.${p}.${Buffer.from('not-a-signature').toString('base64url')}`;
      const res = await call(`${e2e.kycUrl()}/kyc/get-all`, {
        headers: { authorization: `Bearer ${forged}` },
      });
      expect(res.status).toBe(401);

      const fresh = (await fetchToken(credsA)).body.access_token;
      expect(
        (await call(`${e2e.baseUrl()}/orders`, { headers: { authorization: `Bearer ${fresh}` } })).status,
      ).toBe(200);
      await new Promise((r) => setTimeout(r, (e2e.tokenTtlSeconds() + 2) * 1000));
      const expired = await call(`${e2e.baseUrl()}/orders`, {
        headers: { authorization: `Bearer ${fresh}` },
      });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toMatch(/^Bearer/);
    });
  });

  describe('pagination', () => {
    it('pages KYC users with limit/offset, X-Total-Count and Link; limit above 50 is 400', async () => {
      const m = new MerchantApi(await createMerchant('Pager'));
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await m.request('kyc', '/kyc/add', {
              method: 'POST',
              body: kycUserBody({ firstName: `User${i}` }),
            })
          ).status,
        ).toBe(201);
      }
      const page = await m.request<Array<{ uuid: string; firstName: string }>>(
        'kyc',
        '/kyc/get-all?limit=2&offset=0',
      );
      expect(page.status).toBe(200);
      expect(page.body).toHaveLength(2);
      expect(page.body[0].firstName).toBe('User2'); // newest first
      expect(page.headers.get('x-total-count')).toBe('3');
      expect(page.headers.get('link')).toContain('rel="next"');
      const rest = await m.request<unknown[]>('kyc', '/kyc/get-all?limit=2&offset=2');
      expect(rest.body).toHaveLength(1);
      expect((await m.request('kyc', '/kyc/get-all')).body).toHaveLength(3);

      for (const q of ['limit=51', 'limit=0', 'offset=-1', 'limit=abc']) {
        const bad = await m.request('kyc', `/kyc/get-all?${q}`);
        expect(bad.status).toBe(400);
        expect(bad.headers.get('content-type')).toMatch(PROBLEM);
      }
      expect((await m.request('base', '/orders?limit=51')).status).toBe(400);
      const orders = await m.request<unknown[]>('base', '/orders?limit=50&offset=0');
      expect(orders.status).toBe(200);
      expect(Array.isArray(orders.body)).toBe(true);
    });
  });

  describe('merchant isolation', () => {
    it("answers 404 for another merchant's order and KYC user, and 422 for using their KYC user", async () => {
      const order = await a.request<{ uuid: string }>('base', '/orders/create', {
        method: 'POST',
        body: orderBody(),
      });
      expect(order.status).toBe(201);
      expect((await b.request('base', `/orders/${order.body.uuid}/payment-details`)).status).toBe(404);
      expect((await b.request('kyc', `/kyc/${userA}`)).status).toBe(404);
      expect((await a.request('kyc', `/kyc/${userA}`)).status).toBe(200);
      const foreign = await b.request('base', '/orders/create', { method: 'POST', body: orderBody() });
      expect(foreign.status).toBe(422);
      expect((await a.request('base', `/orders/${randomUUID()}/payment-details`)).status).toBe(404);
      const unknownUser = await a.request('base', '/orders/create', {
        method: 'POST',
        body: orderBody({ kycUserUuid: randomUUID() }),
      });
      expect(unknownUser.status).toBe(422);
    });
  });

  describe('input errors are 4xx problem+json, never 500', () => {
    it('rejects malformed JSON, invalid fields, other currencies, extra decimals and bad checksums with 400', async () => {
      const malformed = await a.request('base', '/orders/create', { method: 'POST', body: '{"amount": 10,' });
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toMatch(PROBLEM);

      const invalid = await a.request<{ errors: Array<{ field: string }> }>('base', '/orders/create', {
        method: 'POST',
        body: { amount: 'ten' },
      });
      expect(invalid.status).toBe(400);
      expect(invalid.body.errors.map((e) => e.field)).toEqual(
        expect.arrayContaining(['currency', 'kycUserUuid']),
      );

      // Flip the case of one letter of a checksummed (mixed-case) address: EIP-55 must refuse it.
      const good = Wallet.createRandom().address;
      const at = good.slice(2).search(/[a-fA-F]/) + 2;
      const flipped = good[at] === good[at].toLowerCase() ? good[at].toUpperCase() : good[at].toLowerCase();
      const badChecksum = good.slice(0, at) + flipped + good.slice(at + 1);
      for (const body of [
        orderBody({ currency: 'USD' }),
        orderBody({ amount: 10.001 }),
        orderBody({ amount: -5 }),
        orderBody({ amount: 0 }),
        orderBody({ recepientAddress: '0x1234' }),
        orderBody({ recepientAddress: badChecksum }),
        orderBody({ kycUserUuid: 'not-a-uuid' }),
      ]) {
        const res = await a.request('base', '/orders/create', { method: 'POST', body });
        expect([res.status, body]).toEqual([400, body]);
        expect(res.headers.get('content-type')).toMatch(PROBLEM);
      }
      expect((await a.request('base', '/orders/not-a-uuid/payment-details')).status).toBe(400);
      const kycBad = await a.request('kyc', '/kyc/add', {
        method: 'POST',
        body: kycUserBody({ dateOfBirth: '31-12-1990', email: 'nope' }),
      });
      expect(kycBad.status).toBe(400);
    });

    it('accepts the recipientAddress alias and stores the address checksummed', async () => {
      const addr = Wallet.createRandom().address;
      const res = await a.request<{ recepientAddress: string }>('base', '/orders/create', {
        method: 'POST',
        body: { amount: 12.34, currency: 'EUR', recipientAddress: addr.toLowerCase(), kycUserUuid: userA },
      });
      expect(res.status).toBe(201);
      expect(res.body.recepientAddress).toBe(addr);
    });

    it('answers 413 to a 2 MB body and 415 to a non-JSON content type', async () => {
      const big = JSON.stringify({ ...orderBody(), pad: 'x'.repeat(2 * 1024 * 1024) });
      const res = await a.request('base', '/orders/create', { method: 'POST', body: big });
      expect(res.status).toBe(413);
      const text = await a.request('base', '/orders/create', {
        method: 'POST',
        body: 'amount=10',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same body and refuses another body with 409', async () => {
      const key = randomUUID();
      const body = orderBody();
      const first = await a.request<{ uuid: string }>('base', '/orders/create', {
        method: 'POST',
        body,
        headers: { 'idempotency-key': key },
      });
      const again = await a.request<{ uuid: string }>('base', '/orders/create', {
        method: 'POST',
        body,
        headers: { 'idempotency-key': key },
      });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.uuid).toBe(first.body.uuid);
      const other = await a.request('base', '/orders/create', {
        method: 'POST',
        body: orderBody({ amount: 11 }),
        headers: { 'idempotency-key': key },
      });
      expect(other.status).toBe(409);
    });
  });
});
