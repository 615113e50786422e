import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { Resolver } from './guarded-lookup';
import { WebhookSender } from './webhook-sender';

// A resolver that answers from a table, standing in for DNS (e.g. a rebinding attacker's zone).
const fakeDns =
  (table: Record<string, string[]>): Resolver =>
  (hostname, _options, callback) => {
    const addrs = table[hostname];
    if (!addrs)
      return callback(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
        [],
      );
    callback(
      null,
      addrs.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };

describe('WebhookSender', () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let respond: (res: import('node:http').ServerResponse, body: string) => void = (res) =>
    res.writeHead(200).end();
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        respond(res, bodies[bodies.length - 1]);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    connections = 0;
    respond = (res) => res.writeHead(200).end();
  });

  const post = (
    sender: WebhookSender,
    url: string,
    sandbox: boolean,
    timeoutMs = 2000,
    allowedAddresses?: string[],
  ) =>
    sender.send({
      url,
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":"é"}',
      timeoutMs,
      sandbox,
      allowedAddresses,
    });

  describe('outside sandbox (connect-time SSRF check)', () => {
    it('refuses a name that resolves to a private or loopback address, without connecting', async () => {
      const sender = new WebhookSender(
        fakeDns({ 'rebind.example.com': ['127.0.0.1'], 'intranet.example.com': ['10.0.0.7'] }),
      );
      const loop = await post(sender, `https://rebind.example.com:${port}/hook`, false);
      expect(loop).toMatchObject({
        statusCode: null,
        error: expect.stringContaining('forbidden destination (loopback address)'),
      });
      expect(loop.error).not.toContain('127.0.0.1');
      expect(loop.error).toContain('EADDRNOTALLOWED');
      const priv = await post(sender, `https://intranet.example.com:${port}/hook`, false);
      expect(priv.error).toContain('private address');
      expect(connections).toBe(0);
    });

    it('refuses the whole name when any of its addresses is forbidden', async () => {
      const sender = new WebhookSender(
        fakeDns({ 'mixed.example.com': ['93.184.215.14', '169.254.169.254'] }),
      );
      const res = await post(sender, 'https://mixed.example.com/hook', false);
      expect(res.error).toContain('link-local');
    });

    it('refuses mapped IPv6 answers and literal forbidden addresses', async () => {
      const sender = new WebhookSender(fakeDns({ 'v6.example.com': ['::ffff:127.0.0.1'] }));
      expect((await post(sender, 'https://v6.example.com/hook', false)).error).toContain('IPv4-mapped');
      expect((await post(sender, `https://127.0.0.1:${port}/hook`, false)).error).toContain(
        'url refused by policy',
      );
      expect((await post(sender, `http://hooks.example.com/hook`, false)).error).toContain('https');
      expect(connections).toBe(0);
    });

    it('connects to an address the operator allowed (WEBHOOK_ALLOWED_ADDRESSES), and to no other', async () => {
      const dns = fakeDns({ 'hooks.example.com': ['127.0.0.1'] });
      const refused = await post(new WebhookSender(dns), `https://hooks.example.com:${port}/hook`, false);
      expect(refused.error).toContain('EADDRNOTALLOWED');
      expect(connections).toBe(0);
      const allowed = new WebhookSender(dns);
      // The receiver speaks plain http, so the TLS handshake fails: but only after connecting.
      const res = await post(allowed, `https://hooks.example.com:${port}/hook`, false, 2000, ['127.0.0.1']);
      expect(res.statusCode).toBeNull();
      expect(res.error).not.toContain('EADDRNOTALLOWED');
      expect(connections).toBe(1);
      allowed.close();
    });

    it('reports DNS failures as attempt errors', async () => {
      const res = await post(new WebhookSender(fakeDns({})), 'https://nowhere.example.com/hook', false);
      expect(res).toMatchObject({ statusCode: null, error: expect.stringContaining('ENOTFOUND') });
    });
  });

  describe('in sandbox, over plain http to loopback', () => {
    it('sends the exact body and reports a 2xx as success', async () => {
      const res = await post(new WebhookSender(), `http://127.0.0.1:${port}/ok`, true);
      expect(res).toMatchObject({ statusCode: 200, error: null, retryAfter: null });
      expect(bodies[bodies.length - 1]).toBe('{"a":"é"}');
    });

    it('lets localhost through only when it resolves to loopback', async () => {
      const good = new WebhookSender(fakeDns({ localhost: ['127.0.0.1'] }));
      expect((await post(good, `http://localhost:${port}/ok`, true)).statusCode).toBe(200);
      const evil = new WebhookSender(fakeDns({ localhost: ['10.1.2.3'] }));
      expect((await post(evil, `http://localhost:${port}/ok`, true)).error).toContain('only loopback');
    });

    it('judges the resolved addresses again at every new connection (DNS rebinding)', async () => {
      const answers = [['127.0.0.1'], ['10.1.2.3']];
      const sender = new WebhookSender((hostname, _options, callback) =>
        callback(
          null,
          (answers.shift() ?? []).map((address) => ({ address, family: 4 })),
        ),
      );
      expect((await post(sender, `http://localhost:${port}/ok`, true)).statusCode).toBe(200);
      server.closeAllConnections(); // the kept-alive connection is gone: the next send connects again
      await new Promise((resolve) => setTimeout(resolve, 50));
      const res = await post(sender, `http://localhost:${port}/ok`, true);
      expect(res).toMatchObject({ statusCode: null, error: expect.stringContaining('EADDRNOTALLOWED') });
      expect(connections).toBe(1);
      sender.close();
    });

    it('reports the status of a response whose body is too large, and does not reuse its connection', async () => {
      respond = (res) => res.writeHead(200).end(Buffer.alloc(256 * 1024));
      const sender = new WebhookSender();
      expect(await post(sender, `http://127.0.0.1:${port}/big`, true)).toMatchObject({
        statusCode: 200,
        error: null,
      });
      expect(connections).toBe(1);
      respond = (res) => res.writeHead(200).end();
      const before = bodies.length;
      expect((await post(sender, `http://127.0.0.1:${port}/ok`, true)).statusCode).toBe(200);
      expect(bodies.length).toBe(before + 1); // sent once
      expect(connections).toBeGreaterThan(1); // not on the cut connection
      sender.close();
    });

    it('does not follow a redirect', async () => {
      respond = (res) => res.writeHead(302, { Location: '/elsewhere' }).end();
      const before = bodies.length;
      const res = await post(new WebhookSender(), `http://127.0.0.1:${port}/moved`, true);
      expect(res).toMatchObject({ statusCode: 302, error: 'redirect (HTTP 302) not followed' });
      expect(bodies.length).toBe(before + 1);
    });

    it('passes Retry-After on', async () => {
      respond = (res) => res.writeHead(429, { 'Retry-After': '30' }).end();
      expect(await post(new WebhookSender(), `http://127.0.0.1:${port}/busy`, true)).toMatchObject({
        statusCode: 429,
        retryAfter: '30',
        error: 'HTTP 429',
      });
    });

    it('keeps the connection alive between sends, and still waits for an answer slower than the idle close', async () => {
      const sender = new WebhookSender();
      for (let i = 0; i < 3; i++)
        expect((await post(sender, `http://127.0.0.1:${port}/ok`, true)).statusCode).toBe(200);
      expect(connections).toBe(1);
      respond = (res) => setTimeout(() => res.writeHead(200).end(), 2300);
      expect(await post(sender, `http://127.0.0.1:${port}/slow`, true, 5000)).toMatchObject({
        statusCode: 200,
        error: null,
      });
      sender.close();
    }, 10_000);

    it('gives up after the timeout', async () => {
      respond = () => undefined; // never answers
      const res = await post(new WebhookSender(), `http://127.0.0.1:${port}/hang`, true, 300);
      expect(res).toMatchObject({ statusCode: null, error: 'no response within 300 ms' });
      expect(res.durationMs).toBeGreaterThanOrEqual(290);
      expect(res.durationMs).toBeLessThan(2000);
    });
  });
});
