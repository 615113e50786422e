import { hostConstraint } from './proxy-routes';
import { earlyBodyOf, earlyRoutesOf, matchEarlyRoute } from './early-request';

const LIMIT = 1024;

describe('earlyBodyOf: what the early hand-off may read, as Fastify would', () => {
  it.each([
    ['GET', {}, undefined],
    ['GET', { 'content-length': '0' }, undefined],
    ['GET', { 'content-type': 'application/json' }, undefined], // Fastify reads no GET body
    ['GET', { 'content-length': '5' }, false],
    ['HEAD', {}, undefined],
    ['DELETE', {}, undefined],
    ['DELETE', { 'content-type': 'application/json', 'content-length': '2' }, false],
    ['OPTIONS', { 'content-type': 'application/json' }, false],
    ['POST', {}, undefined], // untyped, no body
    ['POST', { 'content-length': '0' }, undefined],
    ['POST', { 'content-length': '00' }, false], // Fastify's no-body test is the literal '0'
    ['POST', { 'content-length': '7' }, false], // untyped body: Fastify's catch-all decides
    ['POST', { 'content-type': 'application/json' }, 'read'], // typed, empty: read as Fastify would
    ['POST', { 'content-type': 'application/json', 'content-length': '7' }, 'read'],
    ['PUT', { 'content-type': 'application/json', 'content-length': '1024' }, 'read'],
    ['PATCH', { 'content-type': 'application/json', 'content-length': '1025' }, false], // the 413 is Fastify's
    ['POST', { 'content-type': 'application/json', 'content-length': '1e3' }, false],
    ['POST', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, false],
    ['GET', { 'transfer-encoding': 'chunked' }, false],
  ] as const)('%s %j -> %s', (method, headers, expected) => {
    expect(earlyBodyOf(method, headers, LIMIT)).toBe(expected);
  });
});

describe('matchEarlyRoute: the route Fastify would pick, and its template', () => {
  const route = (path: string, extra: object = {}) => ({
    path,
    match: 'subtree' as const,
    upstream: 'orders' as const,
    upstreamUrl: 'http://127.0.0.1:3002',
    ...extra,
  });
  const routes = earlyRoutesOf([
    {
      route: route('/auth/token', { match: 'exact', methods: ['POST'], upstream: 'auth' }),
      host: hostConstraint('api.test'),
    },
    {
      route: route('/auth/token', { match: 'exact', methods: ['POST'], upstream: 'auth' }),
      host: hostConstraint('kyc.test'),
    },
    { route: route('/orders'), host: hostConstraint('api.test') },
    {
      route: route('/dashboard/kyc', { methods: ['GET'], upstreamPath: '/kyc', upstream: 'kyc' }),
      host: hostConstraint('api.test'),
    },
    { route: route('/kyc', { upstreamUrl: 'https://kyc.example.com' }), host: hostConstraint('kyc.test') }, // never in this process
  ]);
  const match = (method: string, path: string, host = 'api.test') => {
    const found = matchEarlyRoute(routes, path, method, host);
    return found && `${found.route.upstream} ${found.label}`;
  };

  it('names the template @fastify/http-proxy registers', () => {
    expect(match('GET', '/orders')).toBe('orders /orders');
    expect(match('GET', '/orders/')).toBe('orders /orders/');
    expect(match('POST', '/orders/create')).toBe('orders /orders/*');
    expect(match('GET', '/dashboard/kyc/get-all')).toBe('kyc /dashboard/kyc/*');
    expect(match('POST', '/auth/token')).toBe('auth /auth/token');
    expect(match('POST', '/auth/token/')).toBe('auth /auth/token/');
  });

  it('declines what the router would not send to that route', () => {
    expect(match('GET', '/ordersx')).toBeUndefined(); // not under /orders
    expect(match('POST', '/auth/token/x')).toBeUndefined(); // an exact route
    expect(match('GET', '/auth/token')).toBeUndefined(); // POST only
    expect(match('POST', '/dashboard/kyc/x')).toBeUndefined(); // GET only
    expect(match('GET', '/orders', 'evil.test')).toBeUndefined(); // another Host
    expect(match('GET', '/kyc/get-all', 'kyc.test')).toBeUndefined(); // a service not here
    expect(match('GET', '/nothing')).toBeUndefined();
  });

  it('picks by Host where two routes share a prefix', () => {
    expect(match('POST', '/auth/token', 'kyc.test:8443')).toBe('auth /auth/token');
    expect(match('POST', '/orders/create', 'kyc.test')).toBeUndefined();
  });
});
