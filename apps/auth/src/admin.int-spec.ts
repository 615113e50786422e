import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';

import { createDatabase, operatorHeaders } from '@onramp/testing';

import { AuthHarness, basic, Jwk, startAuthHarness } from './testing/auth-harness';

describe('auth admin API and boot (real Postgres)', () => {
  let h: AuthHarness;

  beforeAll(async () => {
    h = await startAuthHarness();
  });

  afterAll(async () => {
    await h?.stop();
  });

  it("refuses the admin API without the gateway's credential, whatever key is presented", async () => {
    const forgedOperator = {
      ...operatorHeaders('POST', '/admin/merchants'),
      'x-operator': 'mallory;merchants',
    };
    for (const headers of [
      {},
      { authorization: 'Bearer wrong' },
      { 'x-admin-key': 'wrong' },
      forgedOperator,
    ]) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/admin/merchants',
        headers,
        payload: { name: 'x' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    expect((await h.admin('GET', '/admin/merchants')).statusCode).toBe(200);
  });

  it('lists merchants newest first, paginated, without secrets', async () => {
    const a = await h.createMerchant('List One');
    const b = await h.createMerchant('List Two');
    const res = await h.admin('GET', '/admin/merchants?limit=2');
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(3); // + the demo merchant
    const rows = res.json<Array<Record<string, unknown>>>();
    expect(rows.map((r) => r.merchantId)).toEqual([b.merchantId, a.merchantId]);
    expect(Object.keys(rows[0]).sort()).toEqual(['createdAt', 'merchantId', 'name']);
    expect((await h.admin('GET', '/admin/merchants?limit=51')).statusCode).toBe(400);
  });

  it('rotates a merchant secret: the old one stops working at once', async () => {
    const m = await h.createMerchant('Rotating Inc');
    const res = await h.admin('POST', `/admin/merchants/${m.merchantId}/rotate-secret`);
    expect(res.statusCode).toBe(200);
    const rotated = res.json<{ merchantId: string; merchantSecret: string }>();
    expect(rotated.merchantId).toBe(m.merchantId);
    expect((await h.token(basic(m.merchantId, m.merchantSecret))).statusCode).toBe(401);
    expect((await h.token(basic(m.merchantId, rotated.merchantSecret))).statusCode).toBe(200);

    // Tokens carry the version; the revocation list tells services the old version is dead.
    const claims = (res: Awaited<ReturnType<typeof h.token>>) =>
      JSON.parse(
        Buffer.from(res.json<{ access_token: string }>().access_token.split('.')[1], 'base64url').toString(),
      );
    expect(claims(await h.token(basic(m.merchantId, rotated.merchantSecret)))).toMatchObject({ ver: 1 });
    const revocations = await h.app.inject({ method: 'GET', url: '/.well-known/token-revocations' });
    expect(revocations.json().minimumVersions).toMatchObject({ [m.merchantId]: 1 });

    expect((await h.admin('POST', `/admin/merchants/${randomUUID()}/rotate-secret`)).statusCode).toBe(404);
    expect((await h.admin('POST', '/admin/merchants/nope/rotate-secret')).statusCode).toBe(400);
  });

  it('records each change with its operator in an append-only audit log, never a secret', async () => {
    const alice = { id: 'alice', scopes: ['merchants' as const] };
    const created = await h.app.inject({
      method: 'POST',
      url: '/admin/merchants',
      headers: { ...operatorHeaders('POST', '/admin/merchants', alice), 'x-request-id': 'req-audit-1' },
      payload: { name: 'Audited GmbH' },
    });
    const { merchantId, merchantSecret } = created.json<{ merchantId: string; merchantSecret: string }>();
    const rotateUrl = `/admin/merchants/${merchantId}/rotate-secret`;
    const rotated = await h.app.inject({
      method: 'POST',
      url: rotateUrl,
      headers: operatorHeaders('POST', rotateUrl),
    });
    expect(rotated.statusCode).toBe(200);
    expect((await h.admin('POST', `/admin/merchants/${randomUUID()}/rotate-secret`)).statusCode).toBe(404);

    const log = await h.admin('GET', '/admin/audit-log?limit=50');
    expect(log.statusCode).toBe(200);
    const mine = log.json<Array<Record<string, unknown>>>().filter((r) => r.target === merchantId);
    expect(mine).toEqual([
      expect.objectContaining({
        service: 'auth',
        operator: 'test-operator',
        action: 'merchant.rotate-secret',
        before: { tokenVersion: 0 },
        after: { tokenVersion: 1 },
      }),
      expect.objectContaining({
        operator: 'alice',
        action: 'merchant.create',
        after: { name: 'Audited GmbH' },
        requestId: 'req-audit-1',
      }),
    ]);
    expect(log.body).not.toContain(merchantSecret);
    expect(log.body).not.toContain(rotated.json<{ merchantSecret: string }>().merchantSecret);
    expect((await h.admin('GET', '/admin/audit-log?before=yesterday')).statusCode).toBe(400);

    const db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
    try {
      for (const sql of [
        `UPDATE auth.admin_audit SET operator = 'mallory'`,
        `DELETE FROM auth.admin_audit`,
        `TRUNCATE auth.admin_audit`,
      ])
        await expect(db.query(sql)).rejects.toThrow(/append-only/);
    } finally {
      await db.end();
    }
  });

  it('seeds the demo merchant, and with SERVICE_CALLERS not naming the gateway refuses every admin call', async () => {
    const demoAuth = basic(h.demo.id, h.demo.secret);
    expect((await h.token(demoAuth)).statusCode).toBe(200);

    const second = await h.boot({ SERVICE_CALLERS: 'orders=some-orders-secret' });
    try {
      const res = await second.inject({
        method: 'GET',
        url: '/admin/merchants',
        headers: operatorHeaders('GET', '/admin/merchants'), // the development secret: no longer accepted
      });
      expect(res.statusCode).toBe(401);
      const demo = await second.inject({
        method: 'POST',
        url: '/auth/token',
        headers: { authorization: demoAuth },
      });
      expect(demo.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('gives the demo merchant the configured secret at boot: the one it had stops working', async () => {
    const before = basic(h.demo.id, h.demo.secret);
    const second = await h.boot({ DEMO_MERCHANT_SECRET: 'another-demo-secret' });
    try {
      expect((await h.token(before)).statusCode).toBe(401);
      const res = await h.token(basic(h.demo.id, 'another-demo-secret'));
      expect(res.statusCode).toBe(200);
      const claims = JSON.parse(
        Buffer.from(res.json<{ access_token: string }>().access_token.split('.')[1], 'base64url').toString(),
      ) as { ver: number };
      expect(claims.ver).toBeGreaterThan(0); // a new token version: tokens of the old secret are refused
    } finally {
      await (await h.boot()).close(); // the harness's own secret back, for the tests after this one
      await second.close();
    }
  });

  it('creates exactly one active signing key when two instances boot at once without one', async () => {
    const fresh = await createDatabase(h.databaseUrl);
    const instances: NestFastifyApplication[] = [];
    const client = new Client({ connectionString: fresh });
    try {
      // schema migrated by a first boot, then no key at all: the race is on key creation alone
      await (await h.boot({ DATABASE_URL: fresh })).close();
      await client.connect();
      await client.query(`DELETE FROM "auth"."signing_keys"`);
      instances.push(
        ...(await Promise.all([h.boot({ DATABASE_URL: fresh }), h.boot({ DATABASE_URL: fresh })])),
      );
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM "auth"."signing_keys" WHERE active`,
      );
      expect(rows[0].n).toBe('1');
      const [k1, k2] = await Promise.all(
        instances.map(async (i) =>
          (await i.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{ keys: Jwk[] }>(),
        ),
      );
      expect(k1.keys).toHaveLength(1);
      expect(k2.keys).toEqual(k1.keys);
      expect(k1.keys[0]).toEqual({
        kid: expect.any(String),
        kty: 'EC',
        crv: 'P-256',
        x: expect.any(String),
        y: expect.any(String),
        alg: 'ES256',
        use: 'sig',
      });
    } finally {
      await client.end();
      await Promise.all(instances.map((i) => i.close()));
    }
  });
});
