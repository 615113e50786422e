import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { loadGatewayConfig, OPENAPI_DOCS_DIR, RunningGateway, startGateway } from '@onramp/gateway-feature';

import { unusedPort } from '../testing/fake-upstream';

interface Doc {
  servers: Array<{ variables: Record<string, { default: string }> }>;
}
const committed = (host: string): Doc =>
  JSON.parse(readFileSync(join(OPENAPI_DOCS_DIR, `${host}.openapi.json`), 'utf8')) as Doc;
// The committed document with its server variables defaulting to the address it was fetched from.
const servedFrom = (host: string, origin: string): Doc => {
  const doc = committed(host);
  for (const server of doc.servers) for (const v of Object.values(server.variables)) v.default = origin;
  return doc;
};

// The documents and Swagger UI are the gateway's own: no upstream, no token.
describe('gateway API docs (/openapi.json, /docs)', () => {
  const gateways: RunningGateway[] = [];
  const urlOf = (gateway: RunningGateway, listener: string) =>
    `http://127.0.0.1:${(gateway.listeners[listener].getHttpServer().address() as AddressInfo).port}`;

  const start = async (env: Record<string, string>) => {
    const nowhere = `http://127.0.0.1:${await unusedPort()}`;
    const gateway = await startGateway(
      loadGatewayConfig({
        LOG_LEVEL: 'warn',
        GATEWAY_HOST: '127.0.0.1',
        BASE_PORT: '0',
        KYC_PORT: '0',
        ADMIN_PORT: '0',
        AUTH_URL: nowhere,
        ORDERS_URL: nowhere,
        KYC_SERVICE_URL: nowhere,
        PAYMENT_INGEST_URL: nowhere,
        CHAIN_SETTLEMENT_URL: nowhere,
        WEBHOOK_DISPATCH_URL: nowhere,
        ...env,
      }),
    );
    gateways.push(gateway);
    return gateway;
  };

  afterAll(async () => {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  });

  it("serves each host's committed document and Swagger UI, without auth", async () => {
    const gateway = await start({});
    for (const host of ['base', 'kyc']) {
      const url = urlOf(gateway, host);
      const spec = await fetch(`${url}/openapi.json`);
      expect(spec.status).toBe(200);
      expect(spec.headers.get('content-type')).toContain('application/json');
      expect(await spec.json()).toEqual(servedFrom(host, url));

      const root = await fetch(`${url}/`, { redirect: 'manual' });
      expect([root.status, root.headers.get('location')]).toEqual([302, '/docs']);

      const page = await fetch(`${url}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const html = await page.text();
      for (const asset of html.match(/\/docs\/[\w.-]+\.(?:js|css|png)/g) ?? []) {
        const res = await fetch(`${url}${asset}`);
        expect([asset, res.status]).toEqual([asset, 200]);
      }
      expect(html).toContain('/docs/swagger-ui-bundle.js');
      expect(await (await fetch(`${url}/docs/init.js`)).text()).toContain("fetch('/openapi.json')");
    }
    const base = (await (await fetch(`${urlOf(gateway, 'base')}/openapi.json`)).json()) as { paths: object };
    const kyc = (await (await fetch(`${urlOf(gateway, 'kyc')}/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(base.paths)).toContain('/orders/create');
    expect(Object.keys(kyc.paths)).toContain('/kyc/add');
    // the admin listener serves the operators' document (no secret in it; its operations need a key)
    const admin = (await (await fetch(`${urlOf(gateway, 'admin')}/openapi.json`)).json()) as {
      info: { title: string };
      paths: Record<string, unknown>;
    };
    expect(admin.info.title).toContain('admin');
    expect(Object.keys(admin.paths)).toContain('/admin/audit');
    expect(Object.keys(base.paths).some((p) => p.startsWith('/admin'))).toBe(false);
    expect((await fetch(`${urlOf(gateway, 'admin')}/docs`)).status).toBe(200);
  });

  it('picks the document by Host header in ingress mode', async () => {
    const gateway = await start({
      GATEWAY_HOST_ROUTING: 'true',
      BASE_HOSTNAME: 'api.onramp.test',
      KYC_HOSTNAME: 'kyc.onramp.test',
    });
    const port = (gateway.listeners['public'].getHttpServer().address() as AddressInfo).port;
    const get = (host: string, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        httpRequest({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
          .on('error', reject)
          .end();
      });
    const api = await get('api.onramp.test', '/openapi.json');
    expect(JSON.parse(api.body)).toEqual(servedFrom('base', 'http://api.onramp.test'));
    const kyc = await get('KYC.onramp.test:443', '/openapi.json');
    expect(JSON.parse(kyc.body)).toEqual(servedFrom('kyc', 'http://KYC.onramp.test:443'));
    expect((await get('kyc.onramp.test', '/docs')).status).toBe(200);
    expect((await get('evil.test', '/openapi.json')).status).toBe(404);
  });
});
