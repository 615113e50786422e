import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  body?: unknown; // objects are sent as JSON, strings as they are
}

type Route = (req: SeenRequest) => FakeReply;

// A tiny stand-in for the gateway, enough to exercise the client's token handling and error mapping:
// POST /auth/token issues t1, t2, ... for the right Basic credentials; other routes need a live token.
export class FakeOnrampApi {
  readonly seen: SeenRequest[] = [];
  readonly live = new Set<string>();
  expiresIn = 900;
  private issued = 0;
  private readonly routes = new Map<string, Route>();
  private server?: Server;

  constructor(private readonly credentials = { id: 'merchant-1', secret: 's3cret:with-colon' }) {}

  route(method: string, path: string, handler: Route): this {
    this.routes.set(`${method} ${path}`, handler);
    return this;
  }

  tokenRequests(): SeenRequest[] {
    return this.seen.filter((r) => r.url === '/auth/token');
  }

  apiRequests(): SeenRequest[] {
    return this.seen.filter((r) => r.url !== '/auth/token');
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const seen = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.seen.push(seen);
        const reply = this.answer(seen);
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body ?? null);
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(text);
      });
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: SeenRequest): FakeReply {
    if (req.method === 'POST' && req.url === '/auth/token') {
      const expected = Buffer.from(`${this.credentials.id}:${this.credentials.secret}`).toString('base64');
      if (req.headers.authorization !== `Basic ${expected}`) return problem(401, 'Unauthorized');
      const token = `t${++this.issued}`;
      this.live.add(token);
      return { status: 200, body: { access_token: token, token_type: 'Bearer', expires_in: this.expiresIn } };
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.live.has(bearer))
      return {
        ...problem(401, 'Unauthorized'),
        headers: { 'www-authenticate': 'Bearer', 'content-type': PROBLEM },
      };
    const route = this.routes.get(`${req.method} ${req.url.split('?')[0]}`);
    return route ? route(req) : problem(404, 'Not Found');
  }
}

const PROBLEM = 'application/problem+json';

export const problem = (status: number, title: string, extras: Record<string, unknown> = {}): FakeReply => ({
  status,
  headers: { 'content-type': PROBLEM },
  body: { type: 'about:blank', title, status, ...extras },
});
