import { plainUpstreamPath } from './plain-upstream-path';

describe('plainUpstreamPath', () => {
  it('replaces the prefix and keeps the rest and the query byte for byte', () => {
    expect(plainUpstreamPath('/orders/create', '/orders', '/orders')).toBe('/orders/create');
    expect(plainUpstreamPath('/orders?limit=5&offset=%20x', '/orders', '/orders')).toBe(
      '/orders?limit=5&offset=%20x',
    );
    expect(plainUpstreamPath('/dashboard/kyc/get-all?limit=2', '/dashboard/kyc', '/kyc')).toBe(
      '/kyc/get-all?limit=2',
    );
    expect(plainUpstreamPath('/auth/token/', '/auth/token', '/auth/token')).toBe('/auth/token/');
    expect(plainUpstreamPath('/orders/v1.2/a~b_c-d', '/orders', '/orders')).toBe('/orders/v1.2/a~b_c-d');
  });

  it('is the path the URL parser resolves for every path it accepts', () => {
    const base = 'http://127.0.0.1:3001';
    for (const path of ['/orders', '/orders/', '/orders/x', '/orders/a.b/c', '/orders/~/-_']) {
      const upstream = plainUpstreamPath(path, '/orders', '/orders');
      expect(upstream).toBe(new URL(path, base).pathname);
    }
  });

  it.each([
    '/orders/../auth/token', // dot segments
    '/orders/./create',
    '/orders/.hidden',
    '/orders//create', // empty segment
    '/orders/%2e%2e/auth', // anything percent-encoded
    '/orders/a%2Fb',
    '/orders\\..\\auth', // backslashes
    '/orders/a b',
    '/orders/é',
    '/orders-x/create', // not under the prefix
    '/Orders/create',
  ])('leaves %s to the proxy, which validates it', (url) => {
    expect(plainUpstreamPath(url, '/orders', '/orders')).toBeUndefined();
  });
});
