// `node -r @swc-node/register tools/bench/gateway-hop.ts <tcp|in-memory> [requests]`
//
// CPU per proxied request of the gateway's hop alone: the gateway's listeners in front of a bare
// upstream (an http server answering a small JSON body), in this process, driven by 16 keep-alive
// connections; the upstream reached over loopback TCP (distributed mode, and embedded mode with
// ONRAMP_EMBEDDED_LOOPBACK=1) or handed each connection in memory (embedded mode's default). Prints
// the process's CPU ms per request (load generator included, the same in both). Rate limits are off.
// Alternate the two a few times: on a shared machine one run says little.
import { Agent, createServer, request } from 'node:http';
import { AddressInfo } from 'node:net';

import { InProcessUpstreams, loadGatewayConfig, startGateway } from '@onramp/gateway-feature';

const CONCURRENCY = 16;

async function main(hop: string, requests: number): Promise<void> {
  if (hop !== 'tcp' && hop !== 'in-memory')
    throw new Error('usage: gateway-hop.ts <tcp|in-memory> [requests]');
  const upstream = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end('{"uuid":"0193a3b0-0000-7000-8000-000000000000","status":"CREATED"}');
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const upstreamPort = (upstream.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${upstreamPort}`;
  const off = '0';
  const config = loadGatewayConfig({
    LOG_LEVEL: 'warn',
    BASE_PORT: '0',
    KYC_PORT: '0',
    ADMIN_PORT: '0',
    AUTH_URL: url,
    ORDERS_URL: url,
    KYC_SERVICE_URL: url,
    WEBHOOK_DISPATCH_URL: url,
    PAYMENT_INGEST_URL: url,
    ADMIN_API_KEY: 'bench',
    RATE_LIMIT_PER_SECOND: off,
    RATE_LIMIT_PER_CLIENT_PER_SECOND: off,
    AUTH_TOKEN_RATE_LIMIT_PER_SECOND: off,
    ADMIN_RATE_LIMIT_PER_SECOND: off,
    AUTH_FAILURE_LIMIT_PER_MINUTE: off,
  });
  const inProcessUpstreams = hop === 'in-memory' ? new InProcessUpstreams() : undefined;
  inProcessUpstreams?.add(upstreamPort, upstream);
  const gateway = await startGateway(config, { inProcessUpstreams });
  const port = (gateway.listeners.base.getHttpServer().address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const body = JSON.stringify({ amount: '10.00', currency: 'EUR', recepientAddress: `0x${'ab'.repeat(20)}` });
  let failed = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/orders/create',
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          if (res.statusCode !== 200) failed++;
          res.resume().on('end', resolve);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const run = async (n: number): Promise<void> => {
    let left = n;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await one();
      }),
    );
  };
  await run(1000); // warm-up: connections open, code optimised
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(requests);
  const cpu = process.cpuUsage(cpu0);
  const ms = (us: number) => (us / 1000 / requests).toFixed(3);
  console.log(
    `${hop}: ${ms(cpu.user + cpu.system)} ms CPU per request (user ${ms(cpu.user)}, system ${ms(cpu.system)}), ` +
      `${requests} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${failed} not 200`,
  );
  agent.destroy();
  await gateway.close();
  upstream.closeAllConnections();
  upstream.close();
}

main(process.argv[2] ?? '', Number(process.argv[3] ?? 5000)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
