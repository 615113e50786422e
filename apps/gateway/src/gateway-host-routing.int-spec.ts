import { request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import {
  earlyHandOffs,
  InProcessUpstreams,
  loadGatewayConfig,
  RunningGateway,
  startGateway,
} from '@onramp/gateway-feature';

import { portOf, Seen, startUpstream, stopUpstream, urlOf } from './testing/fake-upstream';
import { RATE_LIMITS_OFF } from './testing/rate-limits-off';

// Over TCP as deployed, and as embedded mode with the limits off hands plain requests over before
// the router (early-handoff.ts), which must pick by Host as the router does.
describe.each([{ early: false }, { early: true }])(
  'gateway with Host routing (ingress mode, early $early)',
  ({ early }) => {
    let upstream: Server;
    let gateway: RunningGateway;
    const seen: Seen[] = [];

    const inProcess = new InProcessUpstreams();

    beforeAll(async () => {
      upstream = await startUpstream('U', seen);
      inProcess.add(portOf(upstream), upstream);
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
          ...(early ? RATE_LIMITS_OFF : {}),
        }),
        early ? { inProcessUpstreams: inProcess } : {},
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
      // the three requests routed to the upstream (the others are the gateway's own answers)
      expect(earlyHandOffs(gateway.listeners['public'].getHttpServer() as Server)).toBe(early ? 3 : 0);
    });
  },
);
