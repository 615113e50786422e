import { createHash } from 'node:crypto';
import { createServer, IncomingHttpHeaders, request as httpRequest, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';

import { verifyServiceRequest } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';

// Stand-ins for our own services, used only in the gateway's tests: the gateway is pure HTTP, so what matters is
// what reaches the upstream (path, query, headers, body bytes) and what the client gets back.
export interface Seen {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodySha256: string;
  bodyLength: number;
  // Reached over a TCP socket, or handed over in memory (the embedded gateway's in-process hop).
  transport: 'tcp' | 'in-memory';
}

// As auth answers the gateway's admin listener: the live operators' key hashes (none unless given),
// to the gateway's development credential only. Not recorded in `seen`: the gateway fetches it itself.
export type OperatorKeys = () => { id: string; scopes: string[]; keySha256: string }[];

export const LATE_ANSWER_MS = 3000;

export function startUpstream(
  name: string,
  seen: Seen[],
  operatorKeys: OperatorKeys = () => [],
): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url === '/internal/operator-keys') {
        const credential = req.headers['x-service-credential'];
        const ok = verifyServiceRequest(
          typeof credential === 'string' ? credential : undefined,
          { gateway: DEVELOPMENT_KEYS.serviceSecret },
          req.method ?? '',
          req.url,
        );
        res.statusCode = ok ? 200 : 401;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(ok ? { operators: operatorKeys() } : {}));
        return;
      }
      seen.push({
        upstream: name,
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        bodySha256: createHash('sha256').update(body).digest('hex'),
        bodyLength: body.length,
        transport: req.socket instanceof Socket ? 'tcp' : 'in-memory',
      });
      if (req.url?.startsWith('/orders/slow')) return; // never answers: the gateway must time out
      const answer = () => {
        res.setHeader('content-type', 'application/json');
        res.setHeader('x-upstream', name);
        res.end(JSON.stringify({ upstream: name, url: req.url }));
      };
      // answers after the gateway's upstream timeout (UPSTREAM_TIMEOUT_MS in the gateway's tests)
      if (req.url?.startsWith('/orders/late')) setTimeout(answer, LATE_ANSWER_MS);
      else answer();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export const portOf = (server: Server) => (server.address() as AddressInfo).port;
export const urlOf = (server: Server) => `http://127.0.0.1:${portOf(server)}`;

export async function unusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', () => resolve()));
  const port = portOf(s);
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export function nonLoopbackIPv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
}

// Raw http.request so we control Content-Length vs chunked and see a reset as an error.
export function post(
  url: string,
  body: Buffer,
  headers: Record<string, string | number>,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function stopUpstream(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
