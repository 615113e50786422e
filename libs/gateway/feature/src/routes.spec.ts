import { isBlockedPath, ROUTE_TABLE, routesFor } from './routes';

const upstreams = {
  auth: 'http://auth',
  kyc: 'http://kyc',
  orders: 'http://orders',
  paymentIngest: 'http://payments',
  chainSettlement: 'http://settlement',
  webhookDispatch: 'http://webhooks',
};

describe('routesFor', () => {
  it("serves the sandbox bank and the dashboard's KYC reads only in sandbox mode", () => {
    const paths = (mode: 'sandbox' | 'production') =>
      routesFor('base', { mode, upstreams }).map((r) => r.path);
    expect(paths('sandbox')).toContain('/sandbox');
    expect(paths('sandbox')).toContain('/dashboard/kyc');
    expect(paths('production')).not.toContain('/sandbox');
    expect(paths('production')).toEqual(['/auth/token', '/orders', '/merchant/webhook']);
  });

  it('resolves each rule to its upstream URL', () => {
    expect(routesFor('kyc', { mode: 'sandbox', upstreams })).toEqual([
      expect.objectContaining({ path: '/auth/token', upstreamUrl: 'http://auth', methods: ['POST'] }),
      expect.objectContaining({ path: '/kyc', upstreamUrl: 'http://kyc' }),
    ]);
    expect(routesFor('admin', { mode: 'production', upstreams })).toEqual([
      expect.objectContaining({ path: '/admin', upstreamUrl: 'http://auth' }),
      expect.objectContaining({ path: '/admin/operators', upstreamUrl: 'http://auth' }),
      expect.objectContaining({ path: '/admin/orders', upstreamUrl: 'http://orders' }),
      expect.objectContaining({ path: '/admin/webhook-deliveries', upstreamUrl: 'http://webhooks' }),
      expect.objectContaining({ path: '/admin/kyc-users', upstreamUrl: 'http://kyc' }),
      expect.objectContaining({ path: '/admin/bank-statements', upstreamUrl: 'http://payments' }),
      expect.objectContaining({ path: '/admin/bank-transactions', upstreamUrl: 'http://payments' }),
      expect.objectContaining({ path: '/admin/payment-policies', upstreamUrl: 'http://payments' }),
      expect.objectContaining({ path: '/admin/returns', upstreamUrl: 'http://payments' }),
      expect.objectContaining({ path: '/admin/settlements', upstreamUrl: 'http://settlement' }),
    ]);
  });

  it("forwards the dashboard's /dashboard/kyc reads to the KYC service's /kyc, GET only", () => {
    const rule = routesFor('base', { mode: 'sandbox', upstreams }).find((r) => r.path === '/dashboard/kyc');
    expect(rule).toMatchObject({ upstreamUrl: 'http://kyc', upstreamPath: '/kyc', methods: ['GET'] });
  });

  it('serves POST /auth/token on both public hosts and nowhere else', () => {
    const withToken = Object.entries(ROUTE_TABLE)
      .filter(([, rules]) => rules.some((r) => r.path === '/auth/token'))
      .map(([name]) => name);
    expect(withToken.sort()).toEqual(['base', 'kyc']);
  });
});

describe('isBlockedPath', () => {
  it.each([
    '/internal/kyc-users/1',
    '/kyc/internal/x',
    '/.well-known/jwks.json',
    '/orders/.WELL-KNOWN/x',
    '/kyc/%69nternal/x',
    '/kyc/%E0%A4%A/x',
  ])('blocks %s', (path) => {
    expect(isBlockedPath(path)).toBe(true);
  });

  it.each(['/orders', '/orders/internals', '/kyc/get-all?x=/internal/', '/merchant/webhook'])(
    'lets %s through',
    (path) => {
      expect(isBlockedPath(path)).toBe(false);
    },
  );
});
