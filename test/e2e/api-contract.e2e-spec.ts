import { randomUUID } from 'node:crypto';

import { Wallet } from 'ethers';

import { CreateOrderRequest } from '@onramp/sdk';

import { call, createMerchant, fetchToken, kycUserBody, MerchantCredentials } from './support/api-client';
import { e2e } from './support/env';
import { apiError, TestMerchant } from './support/test-merchant';

const PROBLEM = /^application\/problem\+json/;
const JSON_BODY = { 'content-type': 'application/json' };

describe('public API conventions through the gateway', () => {
  let credsA: MerchantCredentials;
  let a: TestMerchant;
  let b: TestMerchant;
  let userA: string;

  beforeAll(async () => {
    credsA = await createMerchant('Merchant A');
    a = new TestMerchant(credsA);
    b = new TestMerchant(await createMerchant('Merchant B'));
    userA = (await a.createKycUser(kycUserBody())).uuid;
  });

  // Invalid values go through the SDK too (a cast stands in for a merchant without types).
  const orderBody = (overrides: Record<string, unknown> = {}) =>
    ({
      amount: 10,
      currency: 'EUR',
      recepientAddress: Wallet.createRandom().address,
      kycUserUuid: userA,
      ...overrides,
    }) as CreateOrderRequest;

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
      const wrong = new TestMerchant({ merchantId: credsA.merchantId, merchantSecret: 'wrong' });
      expect((await apiError(wrong.getAccessToken())).status).toBe(401);
    });

    it('answers 401 with WWW-Authenticate for a missing, forged or expired token', async () => {
      const missing = await call(`${e2e.baseUrl()}/orders`);
      expect(missing.status).toBe(401);
      expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(missing.headers.get('content-type')).toMatch(PROBLEM);

      const token = await a.getAccessToken();
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
      const m = new TestMerchant(await createMerchant('Pager'));
      for (let i = 0; i < 3; i++) {
        await m.createKycUser(kycUserBody({ firstName: `User${i}` }));
        expect(m.lastResponse().status).toBe(201);
      }
      const page = await m.listKycUsers({ limit: 2, offset: 0 });
      const pageResponse = m.lastResponse();
      expect(pageResponse.status).toBe(200);
      expect(page.items).toHaveLength(2);
      expect(page.items[0].firstName).toBe('User2'); // newest first
      expect(page.total).toBe(3);
      expect(pageResponse.headers.get('x-total-count')).toBe('3');
      expect(pageResponse.headers.get('link')).toContain('rel="next"');
      const rest = await m.listKycUsers({ limit: 2, offset: 2 });
      expect(rest.items).toHaveLength(1);
      expect((await m.listKycUsers()).items).toHaveLength(3);

      for (const query of [{ limit: 51 }, { limit: 0 }, { offset: -1 }]) {
        const bad = await apiError(m.listKycUsers(query));
        expect(bad.status).toBe(400);
        expect(bad.headers.get('content-type')).toMatch(PROBLEM);
      }
      const notANumber = await m.raw('kyc', '/kyc/get-all?limit=abc');
      expect(notANumber.status).toBe(400);
      expect(notANumber.headers.get('content-type')).toMatch(PROBLEM);
      expect((await apiError(m.listOrders({ limit: 51 }))).status).toBe(400);
      const orders = await m.listOrders({ limit: 50, offset: 0 });
      expect(m.lastResponse().status).toBe(200);
      expect(Array.isArray(orders.items)).toBe(true);
    });
  });

  describe('merchant isolation', () => {
    it("answers 404 for another merchant's order and KYC user, and 422 for using their KYC user", async () => {
      const order = await a.createOrder(orderBody());
      expect(a.lastResponse().status).toBe(201);
      expect((await apiError(b.getPaymentDetails(order.uuid))).status).toBe(404);
      expect((await apiError(b.getKycUser(userA))).status).toBe(404);
      await a.getKycUser(userA);
      expect(a.lastResponse().status).toBe(200);
      expect((await apiError(b.createOrder(orderBody()))).status).toBe(422);
      expect((await apiError(a.getPaymentDetails(randomUUID()))).status).toBe(404);
      const unknownUser = await apiError(a.createOrder(orderBody({ kycUserUuid: randomUUID() })));
      expect(unknownUser.status).toBe(422);
    });
  });

  describe('input errors are 4xx problem+json, never 500', () => {
    it('rejects malformed JSON, invalid fields, other currencies, extra decimals and bad checksums with 400', async () => {
      const malformed = await a.raw('base', '/orders/create', {
        method: 'POST',
        headers: JSON_BODY,
        body: '{"amount": 10,',
      });
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get('content-type')).toMatch(PROBLEM);

      const invalid = await apiError(a.createOrder({ amount: 'ten' } as unknown as CreateOrderRequest));
      expect(invalid.status).toBe(400);
      expect(invalid.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['currency', 'kycUserUuid']));

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
        const error = await apiError(a.createOrder(body));
        expect([error.status, body]).toEqual([400, body]);
        expect(error.headers.get('content-type')).toMatch(PROBLEM);
      }
      expect((await apiError(a.getPaymentDetails('not-a-uuid'))).status).toBe(400);
      const kycBad = await apiError(
        a.createKycUser(kycUserBody({ dateOfBirth: '31-12-1990', email: 'nope' })),
      );
      expect(kycBad.status).toBe(400);
    });

    it('accepts the recipientAddress alias and stores the address checksummed', async () => {
      const addr = Wallet.createRandom().address;
      const order = await a.createOrder({
        amount: 12.34,
        currency: 'EUR',
        recipientAddress: addr.toLowerCase(),
        kycUserUuid: userA,
      });
      expect(a.lastResponse().status).toBe(201);
      expect(order.recepientAddress).toBe(addr);
    });

    it('answers 413 to a 2 MB body and 415 to a non-JSON content type', async () => {
      const big = JSON.stringify({ ...orderBody(), pad: 'x'.repeat(2 * 1024 * 1024) });
      const res = await a.raw('base', '/orders/create', { method: 'POST', headers: JSON_BODY, body: big });
      expect(res.status).toBe(413);
      const text = await a.raw('base', '/orders/create', {
        method: 'POST',
        body: 'amount=10',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).toBe(415);
      const form = await a.raw('base', '/orders/create', {
        method: 'POST',
        body: 'amount=10&currency=EUR',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(415);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same body and refuses another body with 409', async () => {
      const key = randomUUID();
      const body = orderBody();
      const first = await a.createOrder(body, { idempotencyKey: key });
      const firstStatus = a.lastResponse().status;
      const again = await a.createOrder(body, { idempotencyKey: key });
      expect(firstStatus).toBe(201);
      expect(a.lastResponse().status).toBe(201);
      expect(again.uuid).toBe(first.uuid);
      const other = await apiError(a.createOrder(orderBody({ amount: 11 }), { idempotencyKey: key }));
      expect(other.status).toBe(409);
    });
  });
});
