import Fastify from 'fastify';

import { installRateLimit } from './rate-limit';
import { TokenBuckets } from './token-bucket';

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
  });

  it('is off at rate 0', () => {
    const buckets = new TokenBuckets({ ratePerSecond: 0, burst: 0 });
    expect(buckets.take('a').allowed).toBe(true);
  });
});

describe('installRateLimit', () => {
  it('answers 429 problem+json with Retry-After, per credential and stricter on /auth/token', async () => {
    const app = Fastify();
    installRateLimit(
      app,
      { api: { ratePerSecond: 1, burst: 2 }, token: { ratePerSecond: 1, burst: 1 } },
      () => 0,
    );
    app.get('/orders', async () => []);
    app.post('/auth/token', async () => ({}));
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

    expect((await app.inject({ method: 'POST', url: '/auth/token' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/auth/token' })).statusCode).toBe(429);
    await app.close();
  });
});
