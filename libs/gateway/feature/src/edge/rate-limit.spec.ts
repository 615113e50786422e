import Fastify, { FastifyInstance } from 'fastify';

import { normalisePath } from './normalise-path';
import { installRateLimit, RateLimitedListener, RateLimits } from './rate-limit';
import { TokenBuckets } from './token-bucket';
import { TrustedProxies } from './trusted-proxies';

const off = { ratePerSecond: 0, burst: 1 };
const limits = (overrides: Partial<RateLimits>): RateLimits => ({
  client: off,
  api: off,
  token: off,
  authFailures: off,
  admin: off,
  ...overrides,
});

const PROXY = '10.0.0.5';
const trusted = new TrustedProxies(['10.0.0.0/24']);

function appWith(rateLimits: RateLimits, listener: RateLimitedListener = 'public'): FastifyInstance {
  const app = Fastify({ trustProxy: (address: string) => trusted.has(address) });
  app.removeAllContentTypeParsers(); // the gateway forwards raw bytes
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  installRateLimit(app, rateLimits, listener, () => 0);
  app.get('/orders', async () => []);
  // A token endpoint that knows one secret.
  app.post('/auth/token', async (request, reply) => {
    const ok = String(request.body).includes('"client_secret":"right"');
    return ok ? {} : reply.code(401).send({});
  });
  app.get('/admin/merchants', async (request, reply) =>
    request.headers['x-admin-key'] === 'k' ? [] : reply.code(401).send({}),
  );
  return app;
}

const statuses = async (
  n: number,
  send: (i: number) => Promise<{ statusCode: number }>,
): Promise<number[]> => {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send(i)).statusCode);
  return out;
};

describe('TokenBuckets', () => {
  it('allows a burst, then refills at the sustained rate, with a Retry-After hint', () => {
    let t = 0;
    const buckets = new TokenBuckets({ ratePerSecond: 2, burst: 3 }, () => t);
    expect([1, 2, 3].map(() => buckets.take('a').allowed)).toEqual([true, true, true]);
    expect(buckets.take('a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(buckets.take('b').allowed).toBe(true); // keys are independent
    t = 500; // half a second: one token back
    expect(buckets.take('a').allowed).toBe(true);
    expect(buckets.take('a').allowed).toBe(false);
    buckets.refund('a');
    expect(buckets.take('a').allowed).toBe(true);
  });

  it('is off at rate 0', () => {
    const buckets = new TokenBuckets({ ratePerSecond: 0, burst: 0 });
    expect(buckets.take('a').allowed).toBe(true);
  });
});

describe('normalisePath', () => {
  it.each([
    ['/auth/%74oken', '/auth/token'],
    ['/auth/%2574oken', '/auth/token'],
    ['//auth///token/', '/auth/token'],
    ['/orders/../auth/./token?x=1', '/auth/token'],
    ['/AUTH/Token', '/auth/token'],
    ['/auth/%zz', '/auth/%zz'],
  ])('%s is %s', (raw, normal) => expect(normalisePath(raw)).toBe(normal));
});

describe('installRateLimit', () => {
  it('answers 429 problem+json with Retry-After, per credential and stricter on /auth/token', async () => {
    const app = appWith(
      limits({ api: { ratePerSecond: 1, burst: 2 }, token: { ratePerSecond: 1, burst: 1 } }),
    );
    const get = (auth: string) =>
      app.inject({ method: 'GET', url: '/orders', headers: { authorization: auth } });

    expect((await get('Bearer a')).statusCode).toBe(200);
    expect((await get('Bearer a')).statusCode).toBe(200);
    const limited = await get('Bearer a');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBe('1');
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.json()).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect((await get('Bearer b')).statusCode).toBe(200);
    await app.close();
  });

  it('keeps a client that forges X-Forwarded-For and encodes the path in its token bucket', async () => {
    const app = appWith(limits({ token: { ratePerSecond: 1, burst: 3 } }));
    const urls = ['/auth/token', '/auth/%74oken', '//auth/token', '/auth/./token', '/auth/%2574oken'];
    const got = await statuses(urls.length, (i) =>
      app.inject({
        method: 'POST',
        url: urls[i],
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `198.51.100.${i}`, 'content-type': 'application/json' },
        payload: '{"client_secret":"right"}',
      }),
    );
    // Three in the bucket; the other two 429 (the router may 404 some encodings, never 200 them all).
    expect(got.filter((s) => s === 429)).toHaveLength(2);
    await app.close();
  });

  it('does not give a fresh bucket to a fresh Authorization value', async () => {
    const app = appWith(
      limits({ client: { ratePerSecond: 1, burst: 3 }, api: { ratePerSecond: 100, burst: 100 } }),
    );
    const got = await statuses(5, (i) =>
      app.inject({
        method: 'GET',
        url: '/orders',
        remoteAddress: '203.0.113.9',
        headers: { authorization: `Bearer ${i}` },
      }),
    );
    expect(got).toEqual([200, 200, 200, 429, 429]);
    await app.close();
  });

  it('behind a trusted proxy limits the real client, and only it', async () => {
    const app = appWith(limits({ client: { ratePerSecond: 1, burst: 2 } }));
    const from = (client: string) =>
      app.inject({
        method: 'GET',
        url: '/orders',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `1.2.3.4, ${client}` },
      });
    expect(await statuses(3, () => from('198.51.100.7'))).toEqual([200, 200, 429]);
    expect((await from('198.51.100.8')).statusCode).toBe(200); // another client behind the same proxy
    await app.close();
  });

  it('keys IPv6 clients by their /64', async () => {
    const app = appWith(limits({ client: { ratePerSecond: 1, burst: 2 } }));
    const got = await statuses(3, (i) =>
      app.inject({ method: 'GET', url: '/orders', remoteAddress: `2001:db8:1:2::${i + 1}` }),
    );
    expect(got).toEqual([200, 200, 429]);
    await app.close();
  });

  it('limits failed token requests per merchant id across client addresses; successes do not count', async () => {
    const app = appWith(limits({ authFailures: { ratePerSecond: 1 / 60, burst: 3 } }));
    const attempt = (i: number, secret: string, id = 'M-1') =>
      app.inject({
        method: 'POST',
        url: '/auth/token',
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `198.51.100.${i}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ client_id: id, client_secret: secret }),
      });
    expect(await statuses(5, (i) => attempt(i, 'right'))).toEqual([200, 200, 200, 200, 200]);
    expect(await statuses(4, (i) => attempt(i, 'wrong'))).toEqual([401, 401, 401, 429]);
    expect((await attempt(9, 'right', 'm-1')).statusCode).toBe(429); // same merchant, case folded
    expect((await attempt(9, 'wrong', 'm-2')).statusCode).toBe(401);
    const basic = Buffer.from('m-1:wrong').toString('base64');
    const viaBasic = await app.inject({
      method: 'POST',
      url: '/auth/token',
      remoteAddress: '203.0.113.1',
      headers: { authorization: `Basic ${basic}` },
    });
    expect(viaBasic.statusCode).toBe(429);
    await app.close();
  });

  it('limits the admin listener and failed admin credentials per address', async () => {
    const app = appWith(
      limits({ admin: { ratePerSecond: 1, burst: 10 }, authFailures: { ratePerSecond: 1 / 60, burst: 2 } }),
      'admin',
    );
    const call = (key: string) =>
      app.inject({
        method: 'GET',
        url: '/admin/merchants',
        remoteAddress: '127.0.0.1',
        headers: { 'x-admin-key': key },
      });
    expect(await statuses(3, () => call('k'))).toEqual([200, 200, 200]);
    expect(await statuses(3, () => call('guess'))).toEqual([401, 401, 429]);
    expect(await statuses(5, () => call('k'))).toEqual([429, 429, 429, 429, 429]); // the guesser's address waits
    await app.close();
  });

  it('adds no hook at all when every limit is off (what the bench runs with)', () => {
    for (const listener of ['public', 'admin'] as const) {
      const app = Fastify();
      const addHook = jest.spyOn(app, 'addHook');
      installRateLimit(app, limits({}), listener);
      expect(addHook).not.toHaveBeenCalled();
    }
    // one limit on: its hooks are back
    const app = Fastify();
    const addHook = jest.spyOn(app, 'addHook');
    installRateLimit(app, limits({ api: { ratePerSecond: 1, burst: 1 } }), 'public');
    expect(addHook.mock.calls.map(([hook]) => hook)).toEqual(['onRequest']);
  });
});
