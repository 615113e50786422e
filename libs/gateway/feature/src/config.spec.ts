import { ConfigError } from '@onramp/config';

import { loadGatewayConfig } from './config';

describe('loadGatewayConfig', () => {
  it('defaults to the local ports and service URLs', () => {
    const config = loadGatewayConfig({});
    expect(config).toMatchObject({
      mode: 'sandbox',
      host: '0.0.0.0',
      ports: { base: 3000, kyc: 3001, admin: 3002 },
      upstreams: {
        auth: 'http://127.0.0.1:3010',
        kyc: 'http://127.0.0.1:3011',
        orders: 'http://127.0.0.1:3012',
        paymentIngest: 'http://127.0.0.1:3013',
        chainSettlement: 'http://127.0.0.1:3014',
        webhookDispatch: 'http://127.0.0.1:3015',
      },
      bodyLimit: 1024 * 1024,
      hostRouting: undefined,
    });
  });

  it('rejects upstream URLs with a path and host routing without hostnames, naming the variables', () => {
    expect(() => loadGatewayConfig({ ORDERS_URL: 'http://orders/api' })).toThrow(/ORDERS_URL/);
    expect(() => loadGatewayConfig({ GATEWAY_HOST_ROUTING: 'true', BASE_HOSTNAME: 'api.x' })).toThrow(
      ConfigError,
    );
  });

  it('trusts no proxy by default and names a bad GATEWAY_TRUSTED_PROXIES entry', () => {
    expect(loadGatewayConfig({}).trustedProxies.has('127.0.0.1')).toBe(false);
    const trusted = loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/8, fd00::/8' }).trustedProxies;
    expect([trusted.has('10.1.2.3'), trusted.has('::ffff:10.1.2.3'), trusted.has('fd00::1')]).toEqual([
      true,
      true,
      true,
    ]);
    expect(trusted.has('192.168.0.1')).toBe(false);
    expect(() => loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(
      /GATEWAY_TRUSTED_PROXIES/,
    );
    expect(() => loadGatewayConfig({ GATEWAY_TRUSTED_PROXIES: 'ingress' })).toThrow(
      /GATEWAY_TRUSTED_PROXIES/,
    );
  });

  // The gateway alone authenticates operators, so it alone checks the bootstrap admin key.
  it('refuses a short admin key in production', () => {
    expect(() => loadGatewayConfig({ ONRAMP_MODE: 'production', ADMIN_API_KEY: 'short' })).toThrow(
      /ADMIN_API_KEY must be at least 24 characters in production/,
    );
  });

  it('strips a trailing slash from upstream URLs', () => {
    expect(loadGatewayConfig({ AUTH_URL: 'http://auth:3010/' }).upstreams.auth).toBe('http://auth:3010');
  });
});
