import { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

import { FastifyInstance } from 'fastify';

import { withLogContext } from '@onramp/logging';
import { httpResponseRecorder, startHttpServerSpan } from '@onramp/observability';

import { requestIdFor } from '../edge/request-id';
import { TrustedProxies } from '../edge/trusted-proxies';
import { isBlockedPath } from '../routes';
import { clientUpstreamHeaders } from './client-upstream-headers';
import { EarlyRoute, EarlyRouteSpec, earlyBodyOf, earlyRoutesOf, matchEarlyRoute } from './early-request';
import { handOffRequest } from './in-process-handoff';
import { InProcessUpstreams } from './in-process-upstreams';
import { plainUpstreamPath } from './plain-upstream-path';

export interface EarlyHandOffOptions {
  service: string; // the listener's app name (gateway-<listener>): its metrics and spans
  bodyLimit: number;
  upstreamTimeoutMs: number;
  trustedProxies: TrustedProxies;
  inProcess: InProcessUpstreams;
}

// Requests each listener's server handed over early, for the gateway's tests to tell the paths apart
// (the answers must not).
const handedOver = new WeakMap<Server, { count: number }>();
export const earlyHandOffs = (server: Server): number => handedOver.get(server)?.count ?? 0;

// Embedded mode, a listener without rate limits or access log: a request for a service of this
// process is handed to it as it arrives, before the gateway's Fastify routes and parses it. Through
// Fastify the gateway's own pass (a request and reply object, routing, six hooks, body collection,
// the reply's bookkeeping) cost the platform's one thread about 0.14 ms an order, against 0.07 now
// (docs/performance-journal.md). What that pass does for such a request is done here the same way:
// the request id (kept or replaced, echoed in X-Request-Id), the forwarded and trace headers, the
// server span, the metrics of the route, the upstream timeout. A request is taken here only when
// nothing in it needs more (early-request.ts): a plain path (plain-upstream-path.ts) that is not a
// blocked one, under a route of a service now in this process, a method the route takes, no percent
// sign in the query (the gateway's input checks), no Transfer-Encoding, and a body only with POST, PUT
// or PATCH, typed and declared within the body limit. Everything else (a 404, a 413, an encoded path,
// a chunked body, a service not here, the listener closing) goes to Fastify as before, so every answer
// the gateway itself gives is still Fastify's.
export function installEarlyHandOff(
  fastify: FastifyInstance,
  specs: EarlyRouteSpec[],
  opts: EarlyHandOffOptions,
): void {
  const routes = earlyRoutesOf(specs);
  if (routes.length === 0) return;

  const server = fastify.server;
  const routed = server.listeners('request') as RequestListener[];
  if (routed.length !== 1) throw new Error(`gateway: expected one request listener, found ${routed.length}`);
  const route = routed[0];
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true; // Fastify answers 503 while it closes
    done();
  });
  const record = httpResponseRecorder(opts.service);
  const handed = { count: 0 };
  handedOver.set(server, handed);
  server.removeListener('request', route);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!closing && handOffEarly(req, res, routes, opts, record)) handed.count++;
    else route.call(server, req, res);
  });
}

function handOffEarly(
  req: IncomingMessage,
  res: ServerResponse,
  routes: EarlyRoute[],
  opts: EarlyHandOffOptions,
  record: ReturnType<typeof httpResponseRecorder>,
): boolean {
  const started = performance.now();
  const url = req.url ?? '';
  const method = req.method ?? '';
  const query = url.indexOf('?');
  if (query >= 0 && url.includes('%', query)) return false;
  const path = query < 0 ? url : url.slice(0, query);
  const found = matchEarlyRoute(routes, path, method, req.headers.host);
  if (!found) return false;
  const { route, label } = found;
  const upstreamPath = plainUpstreamPath(url, route.prefix, route.upstreamPrefix);
  if (upstreamPath === undefined || isBlockedPath(path)) return false;
  const server = opts.inProcess.serverOn(route.port);
  if (!server) return false;
  const body = earlyBodyOf(method, req.headers, opts.bodyLimit);
  if (body === false) return false;

  const requestId = requestIdFor(req.headers['x-request-id']);
  const span = startHttpServerSpan(opts.service, method, req.headers);
  const headers = clientUpstreamHeaders(req, req.headers, requestId, span.ctx, opts.trustedProxies);
  res.setHeader('x-request-id', requestId);
  res.once('close', () => {
    record(method, label, res.statusCode, (performance.now() - started) / 1000);
    span.end(label, res.statusCode);
  });
  const to = {
    server,
    port: route.port,
    path: upstreamPath,
    headers,
    upstreamTimeoutMs: opts.upstreamTimeoutMs,
    upstream: route.upstream,
  };
  // In the request's log context, as Fastify's hooks would have put it: the 504's warning names it.
  const send = (bytes: Buffer | undefined): void =>
    withLogContext({ requestId }, () => handOffRequest(method, url, bytes, res, to));
  if (body === undefined) {
    send(undefined);
    return true;
  }
  // Content-Length bounds what Node's parser lets through: at most the body limit is buffered.
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
  });
  req.on('end', () => send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
  // A client gone mid-body: nothing to hand over, and its connection is already closed.
  req.on('error', () => undefined);
  return true;
}
