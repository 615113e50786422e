import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { Topics } from '@onramp/contracts';
import { OrdersRepository } from '@onramp/orders-feature';
import { isValidRfReference } from '@onramp/sepa';
import { TopicRecorder, waitFor } from '@onramp/testing';

import { EventPublisher } from '../testing/event-publisher';
import { OrdersTestApp, startOrdersTestApp } from '../testing/orders-test-app';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('POST /orders/create (integration)', () => {
  let t: OrdersTestApp;
  let recorder: TopicRecorder;
  let publisher: EventPublisher;
  const merchant = randomUUID();
  let user: string;

  const approvedUser = (
    merchantId = merchant,
    status: 'APPROVED' | 'PENDING_REVIEW' | 'REJECTED' = 'APPROVED',
  ) => {
    const uuid = randomUUID();
    t.kyc.users.set(uuid, { merchantId, status });
    return uuid;
  };
  const create = (
    body: Record<string, unknown>,
    merchantId = merchant,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/orders/create',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}`, ...headers },
      payload: body,
    });
  const valid = (overrides: Record<string, unknown> = {}) => ({
    amount: 100.5,
    currency: 'EUR',
    recepientAddress: ADDRESS.toLowerCase(),
    kycUserUuid: user,
    ...overrides,
  });

  beforeAll(async () => {
    // The app first: it creates the topics, which a recorder subscribing at the same time on a
    // fresh broker would not find yet.
    t = await startOrdersTestApp();
    [recorder, publisher] = await Promise.all([
      TopicRecorder.start([Topics.OrderCreated]),
      EventPublisher.start(),
    ]);
    user = approvedUser();
  });
  afterAll(async () => {
    await Promise.all([recorder?.stop(), publisher?.stop()]);
    await t?.close();
  });

  it('refuses a request without a valid token', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/orders/create', payload: valid() });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('creates an order with payment details and announces order.created', async () => {
    const res = await create(valid());
    expect(res.statusCode).toBe(201);
    const order = res.json();
    expect(order).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      amount: 100.5,
      currency: 'EUR',
      recepientAddress: ADDRESS,
      kycUserUuid: user,
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiaryName: 'Onramp Sandbox Collections',
      reference: expect.stringMatching(/^RF\d{2}[0-9A-Z]{18}$/),
      orderStatus: 'CREATED',
      status: 'CREATED',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: order.createdAt,
      epcQrPayload: `BCD\n002\n1\nSCT\nCOBADEFFXXX\nOnramp Sandbox Collections\nDE89370400440532013000\nEUR100.5\n\n${order.reference}`,
    });
    expect(isValidRfReference(order.reference)).toBe(true);

    const details = await t.app.inject({
      method: 'GET',
      url: `/orders/${order.uuid}/payment-details`,
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
    });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toEqual(order);

    const event = await recorder.waitForEvent('order.created', (e) => e.key === order.uuid);
    expect(event.envelope).toMatchObject({ type: 'order.created', merchantId: merchant });
    expect(event.envelope.data).toEqual({
      orderUuid: order.uuid,
      kycUserUuid: user,
      amount: '100.50',
      currency: 'EUR',
      recipientAddress: ADDRESS,
      reference: order.reference,
      createdAt: order.createdAt,
    });
  });

  it('accepts the recipientAddress alias; references are unique', async () => {
    const { recepientAddress: _omit, ...rest } = valid();
    const a = await create({ ...rest, amount: 25.1, recipientAddress: ADDRESS });
    const b = await create({
      ...rest,
      amount: 1,
      recipientAddress: ADDRESS,
      recepientAddress: ADDRESS.toLowerCase(),
    });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ amount: 25.1, recepientAddress: ADDRESS });
    expect(b.statusCode).toBe(201);
    expect(b.json().amount).toBe(1);
    expect(a.json().reference).not.toBe(b.json().reference);
  });

  it.each([
    ['amount missing', { amount: undefined }, 'amount', 'amount is required'],
    ['amount not a number', { amount: 'ten' }, 'amount', 'JSON number'],
    ['amount a decimal string', { amount: '10' }, 'amount', 'JSON number'],
    ['amount null', { amount: null }, 'amount', 'JSON number'],
    ['recipientAddress null', { recipientAddress: null }, 'recipientAddress', 'recipientAddress'],
    ['amount with 3 decimals', { amount: 10.123 }, 'amount', 'at most 2 decimals'],
    ['amount as string with 3 decimals', { amount: '10.125' }, 'amount', 'JSON number'],
    ['amount zero', { amount: 0 }, 'amount', 'greater than 0'],
    ['amount negative', { amount: -5 }, 'amount', 'plain decimal'],
    ['amount in exponent form', { amount: '1e3' }, 'amount', 'JSON number'],
    ['amount huge (1e21)', { amount: 1e21 }, 'amount', 'plain decimal'],
    ['amount a boolean', { amount: true }, 'amount', 'JSON number'],
    ['amount below the minimum', { amount: 0.99 }, 'amount', 'at least 1 EUR'],
    ['amount above the maximum', { amount: 100000.01 }, 'amount', 'at most 100000 EUR'],
    ['currency missing', { currency: undefined }, 'currency', 'EUR'],
    ['currency USD', { currency: 'USD' }, 'currency', 'only supported currency'],
    ['currency lowercase', { currency: 'eur' }, 'currency', 'EUR'],
    ['address missing', { recepientAddress: undefined }, 'recepientAddress', 'recepientAddress is required'],
    ['address not hex', { recepientAddress: '0xnot-an-address' }, 'recepientAddress', 'EVM address'],
    ['address too short', { recepientAddress: '0x1234' }, 'recepientAddress', 'EVM address'],
    [
      'address with a bad checksum',
      { recepientAddress: ADDRESS.replace('E0F', 'e0F') },
      'recepientAddress',
      'checksum',
    ],
    ['zero address', { recepientAddress: `0x${'0'.repeat(40)}` }, 'recepientAddress', 'zero address'],
    [
      'alias invalid',
      { recepientAddress: undefined, recipientAddress: 'nope' },
      'recipientAddress',
      'EVM address',
    ],
    [
      'the two spellings disagree',
      { recipientAddress: '0x000000000000000000000000000000000000dEaD' },
      'recepientAddress',
      'different addresses',
    ],
    ['kycUserUuid missing', { kycUserUuid: undefined }, 'kycUserUuid', 'UUID'],
    ['kycUserUuid malformed', { kycUserUuid: 'user-1' }, 'kycUserUuid', 'UUID'],
  ])('answers 400 for %s', async (_case, overrides, field, message) => {
    const res = await create(valid(overrides));
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const errors = res.json().errors as { field: string; message: string }[];
    expect(errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ field, message: expect.stringContaining(message) })]),
    );
  });

  it('answers 400, never a 500, to a NUL byte, a 2,000-deep body and an offset past 2^63', async () => {
    const nul = await create(valid({ kycUserUuid: `${user}\u0000` }));
    expect(nul.statusCode).toBe(400);
    expect(nul.json().errors).toEqual([expect.objectContaining({ field: 'kycUserUuid' })]);
    const deep = await t.app.inject({
      method: 'POST',
      url: '/orders/create',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}`, 'content-type': 'application/json' },
      payload: `{"amount":${'['.repeat(2000)}${']'.repeat(2000)}}`,
    });
    expect([deep.statusCode, deep.json().detail]).toEqual([400, expect.stringContaining('nested deeper')]);
    for (const query of ['offset=9223372036854775808', 'offset=1e400', 'limit=%00', 'offset=1&offset=2']) {
      const list = await t.app.inject({
        method: 'GET',
        url: `/orders?${query}`,
        headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      });
      expect([query, list.statusCode]).toEqual([query, 400]);
      expect(list.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const headers = {
      authorization: `Bearer ${t.issuer.tokenFor(merchant)}`,
      'content-type': 'application/json',
    };
    const array = await t.app.inject({ method: 'POST', url: '/orders/create', headers, payload: '[1,2]' });
    expect(array.statusCode).toBe(400);
    const broken = await t.app.inject({
      method: 'POST',
      url: '/orders/create',
      headers,
      payload: '{"amount": 10,',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.headers['content-type']).toContain('application/problem+json');
  });

  it('answers 422 for an unknown KYC user and for another merchant user, alike', async () => {
    const unknown = await create(valid({ kycUserUuid: randomUUID() }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().type).toBe('https://onramp.dev/problems/kyc-user-unknown');

    const foreign = await create(valid({ kycUserUuid: approvedUser(randomUUID()) }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().detail).toBe(unknown.json().detail);
  });

  it('answers 422 for a user whose KYC is not approved', async () => {
    for (const status of ['PENDING_REVIEW', 'REJECTED'] as const) {
      const res = await create(valid({ kycUserUuid: approvedUser(merchant, status) }));
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        type: 'https://onramp.dev/problems/kyc-not-approved',
        detail: expect.stringContaining(status),
      });
    }
  });

  it('asks the KYC service only for users its projection has not seen', async () => {
    const fresh = approvedUser();
    expect((await create(valid({ kycUserUuid: fresh }))).statusCode).toBe(201);
    expect((await create(valid({ kycUserUuid: fresh }))).statusCode).toBe(201);
    expect(t.kyc.requests.filter((r) => r.includes(fresh))).toEqual([
      `/internal/kyc-users/${fresh}?merchantId=${merchant}`,
    ]);
  });

  it('learns users from kyc.user.registered without calling the KYC service', async () => {
    const viaEvent = randomUUID();
    const otherMerchant = randomUUID();
    const foreignViaEvent = randomUUID();
    for (const [uuid, merchantId] of [
      [viaEvent, merchant],
      [foreignViaEvent, otherMerchant],
    ]) {
      const env = publisher.envelope(Topics.KycUserRegistered, merchantId, {
        userUuid: uuid,
        status: 'APPROVED',
      });
      await publisher.publish(env, uuid);
    }
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      await waitFor(
        async () =>
          (
            await db.query(`SELECT 1 FROM orders.kyc_users WHERE uuid = ANY($1)`, [
              [viaEvent, foreignViaEvent],
            ])
          ).rowCount === 2,
        { timeoutMs: 60_000, description: 'the KYC projection' },
      );
    } finally {
      await db.end();
    }
    expect((await create(valid({ kycUserUuid: viaEvent }))).statusCode).toBe(201);
    expect((await create(valid({ kycUserUuid: foreignViaEvent }))).statusCode).toBe(422);
    expect(t.kyc.requests.some((r) => r.includes(viaEvent) || r.includes(foreignViaEvent))).toBe(false);
  });

  it('replays a repeated Idempotency-Key and refuses it with another body', async () => {
    const merchantId = randomUUID();
    const kycUserUuid = approvedUser(merchantId);
    const key = randomUUID();
    const first = await create(valid({ kycUserUuid }), merchantId, { 'idempotency-key': key });
    const again = await create(valid({ kycUserUuid }), merchantId, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const other = await create(valid({ kycUserUuid, amount: 200 }), merchantId, { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);
    const list = await t.app.inject({
      method: 'GET',
      url: '/orders',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` },
    });
    expect(list.json()).toHaveLength(1);
  });

  it('writes orders created at once together, each on its own terms', async () => {
    const merchantId = randomUUID();
    const known = approvedUser(merchantId);
    // in the projection from here on
    expect((await create(valid({ kycUserUuid: known }), merchantId)).statusCode).toBe(201);
    const pending = approvedUser(merchantId, 'PENDING_REVIEW');
    const unseen = approvedUser(merchantId); // approved, but not in the projection yet
    const users = [...Array.from({ length: 12 }, () => known), pending, unseen, pending, known];
    const shared = jest.spyOn(OrdersRepository.prototype, 'insertCreatedIfEligibleMany');
    try {
      const answers = await Promise.all(
        users.map((kycUserUuid, i) => create(valid({ kycUserUuid, amount: i + 1 }), merchantId)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual(users.map((u) => (u === pending ? 422 : 201)));
      // more orders than statements in flight: some shared one
      expect(shared).toHaveBeenCalled();
      await Promise.all(shared.mock.results.map((r) => r.value)); // none failed over to one by one
      const created = answers.filter((a) => a.statusCode === 201).map((a) => a.json());
      expect(created.map((o) => o.amount)).toEqual(users.flatMap((u, i) => (u === pending ? [] : [i + 1])));
      const db = new Client({ connectionString: t.databaseUrl });
      await db.connect();
      try {
        const { rows } = await db.query<{ orders: number; history: number }>(
          `SELECT (SELECT count(*) FROM orders.orders WHERE merchant_id = $2)::int AS orders,
                  (SELECT count(*) FROM orders.order_status_history WHERE order_uuid = ANY($1::uuid[]))::int AS history`,
          [created.map((o) => o.uuid), merchantId],
        );
        expect(rows[0]).toEqual({ orders: created.length + 1, history: created.length });
      } finally {
        await db.end();
      }
      for (const order of created) {
        const event = await recorder.waitForEvent('order.created', (e) => e.key === order.uuid);
        expect(event.envelope.data).toMatchObject({ orderUuid: order.uuid, reference: order.reference });
      }
    } finally {
      shared.mockRestore();
    }
  });
});
