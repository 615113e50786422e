import { createHash } from 'node:crypto';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { parseOperator, verifyServiceRequest } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';

import {
  earlyHandOffs,
  InProcessUpstreams,
  loadGatewayConfig,
  RunningGateway,
  startGateway,
} from '@onramp/gateway-feature';

import {
  LATE_ANSWER_MS,
  nonLoopbackIPv4,
  portOf,
  post,
  Seen,
  startUpstream,
  stopUpstream,
  unusedPort,
  urlOf,
} from './testing/fake-upstream';
import { RATE_LIMITS_OFF } from './testing/rate-limits-off';

// Three times: as deployed (each upstream over TCP), as embedded mode runs it (the upstreams' servers
// in this process, handed each request in memory), and so with the rate limits off, where a plain
// request is handed over before the gateway's router (early-handoff.ts); the gateway's behaviour
// must not tell them apart.
describe.each([
  { hop: 'tcp', inProcess: false, early: false },
  { hop: 'in-memory', inProcess: true, early: false },
  { hop: 'in-memory', inProcess: true, early: true },
] as const)(
  'gateway (three listeners in front of fake upstreams, $hop hop, early $early)',
  ({ hop, inProcess, early }) => {
    const seen: Seen[] = [];
    let upstreamA: Server; // auth + orders
    let upstreamB: Server; // kyc + webhook-dispatch
    let gateway: RunningGateway;
    let base: string;
    let kyc: string;
    let admin: string;

    const listenerUrl = (name: string) => {
      const address = gateway.listeners[name].getHttpServer().address() as AddressInfo;
      return { url: `http://127.0.0.1:${address.port}`, address };
    };
    const seenFor = (marker: string) => seen.filter((s) => s.url.includes(marker));
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
    // What auth would list: operators created with POST /admin/operators (rows, not configuration).
    const liveOperators = [{ id: 'carol', scopes: ['read', 'kyc'], keySha256: sha256('carol-key') }];

    beforeAll(async () => {
      upstreamA = await startUpstream('A', seen, () => liveOperators);
      upstreamB = await startUpstream('B', seen);
      const config = loadGatewayConfig({
        ONRAMP_MODE: 'sandbox',
        LOG_LEVEL: 'warn',
        GATEWAY_HOST: '0.0.0.0',
        BASE_PORT: '0',
        KYC_PORT: '0',
        ADMIN_PORT: '0',
        AUTH_URL: urlOf(upstreamA),
        ORDERS_URL: urlOf(upstreamA),
        KYC_SERVICE_URL: urlOf(upstreamB),
        WEBHOOK_DISPATCH_URL: urlOf(upstreamB),
        PAYMENT_INGEST_URL: `http://127.0.0.1:${await unusedPort()}`,
        // Long enough for a 1 MiB body to reach a fake upstream on a busy CI machine (500 ms once gave a
        // 504 there), short enough that the never-answering upstream's 504 stays quick.
        UPSTREAM_TIMEOUT_MS: '2500',
        ADMIN_API_KEY: 'k',
        OPERATOR_KEYS: `reader:read:${createHash('sha256').update('reader-key').digest('hex')}`,
        ...(early ? RATE_LIMITS_OFF : {}),
      });
      let inProcessUpstreams: InProcessUpstreams | undefined;
      if (inProcess) {
        inProcessUpstreams = new InProcessUpstreams();
        for (const upstream of [upstreamA, upstreamB]) inProcessUpstreams.add(portOf(upstream), upstream);
      }
      gateway = await startGateway(config, { inProcessUpstreams });
      base = listenerUrl('base').url;
      kyc = listenerUrl('kyc').url;
      admin = listenerUrl('admin').url;
    });

    afterAll(async () => {
      await gateway?.close();
      await Promise.all([stopUpstream(upstreamA), stopUpstream(upstreamB)]);
    });

    it('forwards POST /auth/token on both public hosts to auth with the body bytes and headers intact', async () => {
      for (const host of [base, kyc]) {
        const marker = `t${Math.random().toString(36).slice(2)}`;
        const res = await fetch(`${host}/auth/token?m=${marker}`, {
          method: 'POST',
          headers: {
            authorization: 'Basic bWVyY2hhbnQ6c2VjcmV0',
            'content-type': 'application/x-www-form-urlencoded',
            'x-request-id': `req-${marker}`,
            'x-forwarded-for': '6.6.6.6',
          },
          body: 'grant_type=client_credentials',
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-upstream')).toBe('A');
        expect(res.headers.get('x-request-id')).toBe(`req-${marker}`);
        const [hit] = seenFor(marker);
        expect(hit.url).toBe(`/auth/token?m=${marker}`);
        expect(hit.bodySha256).toBe(
          createHash('sha256').update('grant_type=client_credentials').digest('hex'),
        );
        expect(hit.headers['content-type']).toBe('application/x-www-form-urlencoded');
        expect(hit.headers.authorization).toBe('Basic bWVyY2hhbnQ6c2VjcmV0');
        expect(hit.headers['x-request-id']).toBe(`req-${marker}`);
        // no trusted ingress configured: the client's X-Forwarded-For is replaced, not trusted
        expect(hit.headers['x-forwarded-for']).toBe('127.0.0.1');
        expect(hit.headers['x-forwarded-proto']).toBe('http');
        expect(hit.headers['x-forwarded-host']).toBe(new URL(host).host);
        expect(hit.transport).toBe(hop);
      }
    });

    it('keeps JSON bytes exactly as sent and gives every request an id', async () => {
      const marker = `j${Math.random().toString(36).slice(2)}`;
      const raw = `{"amount":  10.50 ,"currency":"EUR","note":"${marker}"}`;
      const res = await fetch(`${base}/orders/create?m=${marker}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: raw,
      });
      expect(res.status).toBe(200);
      const [hit] = seenFor(marker);
      expect(hit.bodySha256).toBe(createHash('sha256').update(raw).digest('hex'));
      expect(hit.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-request-id')).toBe(hit.headers['x-request-id']);
    });

    it('hands a plain request over before routing only with the limits off, and routes any other', async () => {
      const server = gateway.listeners.base.getHttpServer() as Server;
      const before = earlyHandOffs(server);
      const marker = `e${Math.random().toString(36).slice(2)}`;
      const plain = await fetch(`${base}/orders/create?m=${marker}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      });
      expect(plain.status).toBe(200);
      expect(earlyHandOffs(server)).toBe(before + (early ? 1 : 0));
      for (const [url, init] of [
        [`${base}/orders/x?m=%20${marker}`, {}], // an encoded query: the gateway's input checks
        [`${base}/orders/%78`, {}], // an encoded path
        [`${base}/internal/x`, {}], // a blocked one
        [`${base}/orders/create`, { method: 'POST', body: Buffer.from('{}') }], // an untyped body
        [`${base}/auth/token`, {}], // a method the route does not take
      ] as const) {
        await fetch(url, init);
        expect(earlyHandOffs(server)).toBe(before + (early ? 1 : 0));
      }
      const [hit] = seenFor(marker);
      expect(hit.headers['content-length']).toBe('7');
      expect(hit.transport).toBe(hop);
    });

    it('routes each public host to its own services only', async () => {
      const expectRoute = async (url: string, upstream: string | null) => {
        const res = await fetch(url);
        if (upstream) {
          expect(res.status).toBe(200);
          expect(res.headers.get('x-upstream')).toBe(upstream);
        } else {
          expect(res.status).toBe(404);
          expect(res.headers.get('content-type')).toContain('application/problem+json');
          expect(await res.json()).toMatchObject({ status: 404, title: 'Not Found' });
        }
      };
      await expectRoute(`${base}/orders`, 'A');
      await expectRoute(`${base}/orders/0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f/payment-details`, 'A');
      await expectRoute(`${base}/merchant/webhook`, 'B');
      await expectRoute(`${base}/merchant/webhook/deliveries`, 'B');
      await expectRoute(`${kyc}/kyc/get-all?limit=5`, 'B');
      await expectRoute(`${base}/kyc/get-all`, null);
      await expectRoute(`${kyc}/orders`, null);
      await expectRoute(`${base}/admin/merchants`, null);
      await expectRoute(`${base}/ordersx`, null);
      await expectRoute(`${base}/auth/token`, null); // POST only
      await expectRoute(`${base}/nothing/here`, null);
    });

    it('never forwards /internal/ or /.well-known/ paths', async () => {
      const before = seen.length;
      for (const url of [
        `${base}/internal/kyc-users/x`,
        `${base}/.well-known/jwks.json`,
        `${kyc}/kyc/internal/x`,
        `${kyc}/kyc/%69nternal/x`, // percent-encoded 'i'
        `${admin}/admin/.well-known/x`,
      ]) {
        const res = await fetch(url);
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
      expect(seen.length).toBe(before);
    });

    it('refuses a path that climbs out of its route, and hands a plain one over with its query as sent', async () => {
      const before = seen.length;
      for (const path of [
        '/orders/..%2fauth/token',
        '/orders/..%2F..%2Fmerchant/webhook',
        '/orders/..%5cauth',
      ]) {
        const res = await fetch(`${base}${path}`);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
      expect(seen.length).toBe(before);

      const plain = '/orders/plain-path.v2?limit=5&x=%20y&z=..%2f';
      expect((await fetch(`${base}${plain}`)).status).toBe(200);
      expect(seenFor('plain-path').map((s) => s.url)).toEqual([plain]);
    });

    it('answers 413 problem+json to a 2 MB body, without forwarding it or resetting the connection', async () => {
      const before = seen.length;
      const big = Buffer.alloc(2 * 1024 * 1024, 0x61);
      const viaFetch = await fetch(`${base}/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      expect(viaFetch.status).toBe(413);
      expect(viaFetch.headers.get('content-type')).toContain('application/problem+json');
      expect(await viaFetch.json()).toMatchObject({ status: 413, title: 'Payload Too Large' });

      const declared = await post(`${kyc}/kyc/add`, big, {
        'content-type': 'application/json',
        'content-length': big.length,
      });
      expect(declared.status).toBe(413);
      const chunked = await post(`${base}/auth/token`, big, {
        'content-type': 'application/json',
        'transfer-encoding': 'chunked',
      });
      expect(chunked.status).toBe(413);
      const unknownPath = await post(`${base}/nope`, big, {
        'content-type': 'application/json',
        'content-length': big.length,
      });
      expect(unknownPath.status).toBe(413);
      expect(seen.length).toBe(before);
    });

    it('accepts a body just under the limit', async () => {
      const marker = `b${Math.random().toString(36).slice(2)}`;
      const body = Buffer.alloc(1024 * 1024 - 64, 0x62);
      const res = await post(`${base}/orders/create?m=${marker}`, body, {
        'content-type': 'application/octet-stream',
        'content-length': body.length,
      });
      expect(res.status).toBe(200);
      expect(seenFor(marker)[0].bodyLength).toBe(body.length);
    });

    it('answers 503 problem+json quickly when the upstream is down', async () => {
      const started = Date.now();
      const res = await fetch(`${base}/sandbox/sepa-credits`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(await res.json()).toMatchObject({ status: 503, instance: '/sandbox/sepa-credits' });
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('answers 504 problem+json when the upstream does not respond in time', async () => {
      const res = await fetch(`${base}/orders/slow`);
      expect(res.status).toBe(504);
      expect(await res.json()).toMatchObject({ status: 504, title: 'Gateway Timeout' });
    });

    it('answers 504 to a request its upstream answers too late, and the late answer goes nowhere', async () => {
      const res = await fetch(`${base}/orders/late`);
      expect(res.status).toBe(504);
      await new Promise((resolve) => setTimeout(resolve, LATE_ANSWER_MS - 2500 + 300)); // the answer came meanwhile
      const next = await fetch(`${base}/orders/create`, { method: 'POST', body: '{}' });
      expect(next.status).toBe(200);
    });

    it('serves /admin/* on the admin listener, bound to loopback only', async () => {
      const asAdmin = { 'x-admin-key': 'k' };
      const res = await fetch(`${admin}/admin/merchants?limit=1`, { headers: asAdmin });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-upstream')).toBe('A');
      expect(seen.at(-1)?.url).toBe('/admin/merchants?limit=1');
      const deliveries = await fetch(`${admin}/admin/webhook-deliveries/x/redeliver`, {
        method: 'POST',
        headers: asAdmin,
      });
      expect(deliveries.headers.get('x-upstream')).toBe('B'); // webhook-dispatch, not auth
      expect(seen.at(-1)?.url).toBe('/admin/webhook-deliveries/x/redeliver');
      const orders = await fetch(`${admin}/admin/orders?status=FAILED`, { headers: asAdmin });
      expect(orders.headers.get('x-upstream')).toBe('A');
      expect(seen.at(-1)?.url).toBe('/admin/orders?status=FAILED');
      expect((await fetch(`${base}/admin/webhook-deliveries`)).status).toBe(404);
      expect((await fetch(`${admin}/orders`)).status).toBe(404);

      expect(listenerUrl('admin').address.address).toBe('127.0.0.1');
      expect(listenerUrl('base').address.address).toBe('0.0.0.0');
      const lan = nonLoopbackIPv4();
      if (lan) {
        const { port } = listenerUrl('admin').address;
        await expect(fetch(`http://${lan}:${port}/health`)).rejects.toThrow();
        expect((await fetch(`http://${lan}:${listenerUrl('base').address.port}/health`)).status).toBe(200);
      }
    });

    it('authenticates the operator, checks its scope, and forwards only who it is with its own credential', async () => {
      const before = seen.length;
      for (const headers of <Record<string, string>[]>[
        {},
        { 'x-admin-key': 'wrong' },
        { authorization: 'Bearer reader-kez' },
      ]) {
        const res = await fetch(`${admin}/admin/merchants`, { headers });
        expect(res.status).toBe(401);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
      }
      const reader = { authorization: 'Bearer reader-key', 'x-operator': 'admin;money' };
      const refused = await fetch(`${admin}/admin/webhook-deliveries/x/redeliver`, {
        method: 'POST',
        headers: reader,
      });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ detail: 'operator reader lacks the "deliveries" scope' });
      expect(seen.length).toBe(before); // refused at the gateway: nothing reached a service

      expect((await fetch(`${admin}/admin/orders?limit=5`, { headers: reader })).status).toBe(200);
      const hit = seen.at(-1)!;
      expect(hit.url).toBe('/admin/orders?limit=5');
      expect(hit.headers.authorization).toBeUndefined(); // the operator's key stops at the gateway
      expect(hit.headers['x-operator']).toBe('reader;read'); // not what the client claimed
      const credential = String(hit.headers['x-service-credential']);
      const callers = { gateway: DEVELOPMENT_KEYS.serviceSecret };
      expect(verifyServiceRequest(credential, callers, 'GET', hit.url, Date.now(), 'reader;read')).toBe(
        'gateway',
      );
      expect(
        verifyServiceRequest(credential, callers, 'GET', hit.url, Date.now(), 'admin;money'),
      ).toBeUndefined();
      expect(parseOperator(String(hit.headers['x-operator']))).toEqual({ id: 'reader', scopes: ['read'] });
    });

    it("authenticates an operator from auth's list, with its scopes, and routes /admin/operators to auth", async () => {
      const carol = { authorization: 'Bearer carol-key' };
      const before = seen.length;
      const refused = await fetch(`${admin}/admin/operators`, { method: 'POST', headers: carol });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ detail: 'operator carol lacks the "operators" scope' });
      expect(seen.length).toBe(before);
      const res = await fetch(`${admin}/admin/kyc-users/u/decision`, { method: 'POST', headers: carol });
      expect(res.status).toBe(200);
      expect(seen.at(-1)!.headers['x-operator']).toBe('carol;read,kyc');
      const listed = await fetch(`${admin}/admin/operators`, { headers: { 'x-admin-key': 'k' } });
      expect(listed.headers.get('x-upstream')).toBe('A'); // auth
      expect(seen.at(-1)!.url).toBe('/admin/operators');
    });

    it('answers GET /health itself on every listener', async () => {
      for (const host of [base, kyc, admin]) {
        const res = await fetch(`${host}/health`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ status: 'ok' });
      }
    });
  },
);
