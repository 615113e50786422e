import { request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { loadGatewayConfig, RunningGateway, startGateway } from '@onramp/gateway-feature';

import { Seen, startUpstream, stopUpstream, urlOf } from './testing/fake-upstream';

describe('gateway with Host routing (ingress mode)', () => {
  let upstream: Server;
  let gateway: RunningGateway;
  const seen: Seen[] = [];

  beforeAll(async () => {
    upstream = await startUpstream('U', seen);
    gateway = await startGateway(
      loadGatewayConfig({
        LOG_LEVEL: 'warn',
        GATEWAY_HOST: '127.0.0.1',
        BASE_PORT: '0',
        ADMIN_PORT: '0',
        AUTH_URL: urlOf(upstream),
        ORDERS_URL: urlOf(upstream),
        KYC_SERVICE_URL: urlOf(upstream),
        GATEWAY_HOST_ROUTING: 'true',
        BASE_HOSTNAME: 'api.onramp.test',
        KYC_HOSTNAME: 'kyc.onramp.test',
      }),
    );
  });

  afterAll(async () => {
    await gateway?.close();
    await stopUpstream(upstream);
  });

  it('picks the route table by Host header on one port', async () => {
    const port = (gateway.listeners['public'].getHttpServer().address() as AddressInfo).port;
    const get = (host: string, path: string) =>
      new Promise<number>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await get('api.onramp.test', '/orders')).toBe(200);
    expect(await get('API.onramp.test:443', '/orders')).toBe(200);
    expect(await get('kyc.onramp.test', '/orders')).toBe(404);
    expect(await get('kyc.onramp.test', '/kyc/get-all')).toBe(200);
    expect(await get('api.onramp.test', '/kyc/get-all')).toBe(404);
    expect(await get('evil.test', '/orders')).toBe(404);
    expect(await get('evil.test', '/health')).toBe(200);
  });
});
