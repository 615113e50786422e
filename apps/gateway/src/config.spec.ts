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
        webhookDispatch: 'http://127.0.0.1:3015',
      },
      bodyLimit: 1024 * 1024,
      trustForwarded: false,
      hostRouting: undefined,
    });
  });

  it('rejects upstream URLs with a path and host routing without hostnames, naming the variables', () => {
    expect(() => loadGatewayConfig({ ORDERS_URL: 'http://orders/api' })).toThrow(/ORDERS_URL/);
    expect(() => loadGatewayConfig({ GATEWAY_HOST_ROUTING: 'true', BASE_HOSTNAME: 'api.x' })).toThrow(
      ConfigError,
    );
  });

  it('strips a trailing slash from upstream URLs', () => {
    expect(loadGatewayConfig({ AUTH_URL: 'http://auth:3010/' }).upstreams.auth).toBe('http://auth:3010');
  });
});
