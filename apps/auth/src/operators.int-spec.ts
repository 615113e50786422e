import { createHash } from 'node:crypto';

import { signServiceRequest } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';
import { operatorHeaders } from '@onramp/testing';

import { AuthHarness, startAuthHarness } from './testing/auth-harness';

describe('auth operators as rows (real Postgres)', () => {
  let h: AuthHarness;
  const root = { id: 'root', scopes: ['read' as const, 'operators' as const] };

  beforeAll(async () => {
    h = await startAuthHarness();
  });

  afterAll(async () => {
    await h?.stop();
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    h.app.inject({
      method,
      url,
      headers: { ...operatorHeaders(method, url, root), 'x-request-id': `req-${url}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const liveKeys = (identity = 'gateway') =>
    h.app.inject({
      method: 'GET',
      url: '/internal/operator-keys',
      headers: {
        'x-service-credential': signServiceRequest(
          identity,
          DEVELOPMENT_KEYS.serviceSecret,
          'GET',
          '/internal/operator-keys',
        ),
      },
    });

  it('creates an operator with a key shown once, lists it without the key, revokes it, all audited', async () => {
    const created = await admin('POST', '/admin/operators', { id: 'dana', scopes: ['read', 'money'] });
    expect(created.statusCode).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const dana = created.json<{ id: string; key: string; scopes: string[]; createdBy: string }>();
    expect(dana).toMatchObject({ id: 'dana', scopes: ['read', 'money'], createdBy: 'root', revokedAt: null });
    expect(dana.key).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const listed = await admin('GET', '/admin/operators');
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([expect.objectContaining({ id: 'dana', scopes: ['read', 'money'] })]);
    expect(listed.body).not.toContain(dana.key);

    // the gateway's view: the key's SHA-256, never the key
    const keys = await liveKeys();
    expect(keys.statusCode).toBe(200);
    const sha = createHash('sha256').update(dana.key).digest('hex');
    expect(keys.json()).toEqual({ operators: [{ id: 'dana', scopes: ['read', 'money'], keySha256: sha }] });

    expect((await admin('POST', '/admin/operators', { id: 'dana', scopes: ['read'] })).statusCode).toBe(409);

    const revoked = await admin('POST', '/admin/operators/dana/revoke');
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: 'dana', revokedBy: 'root', revokedAt: expect.any(String) });
    expect((await admin('POST', '/admin/operators/dana/revoke')).statusCode).toBe(200); // already: same answer
    expect((await liveKeys()).json()).toEqual({ operators: [] });
    // a revoked id is not given out again
    expect((await admin('POST', '/admin/operators', { id: 'dana', scopes: ['read'] })).statusCode).toBe(409);
    expect((await admin('POST', '/admin/operators/nobody/revoke')).statusCode).toBe(404);

    const log = await admin('GET', '/admin/audit-log?limit=50');
    const mine = log.json<Array<Record<string, unknown>>>().filter((r) => r.target === 'dana');
    expect(mine).toEqual([
      expect.objectContaining({
        operator: 'root',
        action: 'operator.revoke',
        before: { scopes: ['read', 'money'] },
        requestId: 'req-/admin/operators/dana/revoke',
      }),
      expect.objectContaining({
        operator: 'root',
        action: 'operator.create',
        after: { scopes: ['read', 'money'] },
      }),
    ]);
    expect(log.body).not.toContain(dana.key);
  });

  it('refuses malformed operators with a 400 naming the problem', async () => {
    for (const [payload, detail] of [
      [{ id: 'admin', scopes: ['read'] }, /reserved/],
      [{ id: 'Eve!', scopes: ['read'] }, /id must be/],
      [{ id: 'eve', scopes: [] }, /must not be empty/],
      [{ id: 'eve', scopes: ['root'] }, /each scope must be one of/],
      [{ id: 'eve', scopes: ['read', 'read'] }, /twice/],
      [{ id: 'eve', scopes: 'read' }, /array/],
    ] as const) {
      const res = await admin('POST', '/admin/operators', payload);
      expect(res.statusCode).toBe(400);
      expect(JSON.stringify(res.json())).toMatch(detail);
    }
    expect((await admin('POST', '/admin/operators/Not%20An%20Id/revoke')).statusCode).toBe(400);
  });

  it("lists live keys to the gateway's credential only", async () => {
    expect((await liveKeys('orders')).statusCode).toBe(401);
    const bare = await h.app.inject({ method: 'GET', url: '/internal/operator-keys' });
    expect(bare.statusCode).toBe(401);
    // an operator-bound admin credential is for /admin, not this list
    const asOperator = await h.app.inject({
      method: 'GET',
      url: '/internal/operator-keys',
      headers: operatorHeaders('GET', '/internal/operator-keys', root),
    });
    expect(asOperator.statusCode).toBe(401);
  });
});
