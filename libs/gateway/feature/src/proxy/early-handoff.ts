import { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { TLSSocket } from 'node:tls';

import { FastifyInstance } from 'fastify';

import { withLogContext } from '@onramp/logging';
import { httpResponseRecorder, startHttpServerSpan, traceHeaders } from '@onramp/observability';

import { requestIdFor } from '../edge/request-id';
import { TrustedProxies } from '../edge/trusted-proxies';
import { isBlockedPath, ResolvedRoute } from '../routes';
import { forwardedHeaders } from './forwarded-headers';
import { handOffRequest } from './in-process-handoff';
import { InProcessUpstreams } from './in-process-upstreams';
import { plainUpstreamPath } from './plain-upstream-path';

// What @fastify/http-proxy routes when a route names no methods.
const PROXY_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];
// A body is handed over early only with these; any other method that carries one takes the routed
// path (DELETE or OPTIONS with a body is rare).
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const DECIMAL_LENGTH = /^\d{1,10}$/;

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

// A proxied route of the listener, with the Host it answers for when routing by host.
export interface EarlyRouteSpec {
  route: ResolvedRoute;
  host?: RegExp;
}

interface EarlyRoute {
  prefix: string;
  upstreamPrefix: string;
  exact: boolean;
  methods: ReadonlySet<string>;
  host?: RegExp;
  port: number;
  upstream: string;
}

// Embedded mode, a listener without rate limits or access log: a request for a service of this
// process is handed to it as it arrives, before the gateway's Fastify routes and parses it. Through
// Fastify the gateway's own pass (a request and reply object, routing, six hooks, body collection,
// the reply's bookkeeping) cost the platform's one thread 0.1-0.2 ms an order, 15-25 % of order
// creation's pace (docs/performance-journal.md). What that pass does for such a request is done here
// the same way: the request id (kept or replaced, echoed in X-Request-Id), the forwarded and trace
// headers, the server span, the metrics of the route, the upstream timeout. A request is taken here
// only when nothing in it needs more: a plain path (plain-upstream-path.ts) that is not a blocked one,
// under a route of a service now in this process, a method the route takes, no percent sign in the
// query (the gateway's input checks), a body only with POST, PUT or PATCH, declared by Content-Length
// within the body limit and typed (no Transfer-Encoding). Everything else (a 404, a 413, an encoded path, a chunked body, a
// service not here, the listener closing) goes to Fastify as before, so every answer the gateway
// itself gives is still Fastify's.
export function installEarlyHandOff(
  fastify: FastifyInstance,
  specs: EarlyRouteSpec[],
  opts: EarlyHandOffOptions,
): void {
  const routes: EarlyRoute[] = specs.flatMap(({ route, host }) => {
    const port = InProcessUpstreams.portOf(route.upstreamUrl);
    if (port === undefined) return [];
    const prefix = route.path;
    return [
      {
        prefix,
        upstreamPrefix: route.upstreamPath ?? prefix,
        exact: route.match === 'exact',
        methods: new Set(route.methods ?? PROXY_METHODS),
        host,
        port,
        upstream: route.upstream,
      },
    ];
  });
  // The router's choice among overlapping prefixes: the longest.
  routes.sort((a, b) => b.prefix.length - a.prefix.length);
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
  const found = matchRoute(routes, path, method, req.headers.host);
  if (!found) return false;
  const { route, label } = found;
  const upstreamPath = plainUpstreamPath(url, route.prefix, route.upstreamPrefix);
  if (upstreamPath === undefined || isBlockedPath(path)) return false;
  const server = opts.inProcess.serverOn(route.port);
  if (!server) return false;
  const body = bodyOf(req, method, opts.bodyLimit);
  if (body === false) return false;

  const requestId = requestIdFor(req.headers['x-request-id']);
  const span = startHttpServerSpan(opts.service, method, req.headers);
  const remoteAddress = req.socket.remoteAddress;
  const headers = {
    ...forwardedHeaders(
      req.headers,
      { remoteAddress, encrypted: req.socket instanceof TLSSocket, host: req.headers.host, requestId },
      opts.trustedProxies.has(remoteAddress),
    ),
    // The service continues the gateway's span: one trace from the edge to the events.
    ...traceHeaders(span.ctx),
  };
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

// The route Fastify would pick for this request, and its template (the metrics' route label).
function matchRoute(
  routes: EarlyRoute[],
  path: string,
  method: string,
  host: string | undefined,
): { route: EarlyRoute; label: string } | undefined {
  for (const route of routes) {
    if (!path.startsWith(route.prefix)) continue;
    const rest = path.slice(route.prefix.length);
    const label =
      rest === ''
        ? route.prefix
        : rest === '/'
          ? `${route.prefix}/`
          : !route.exact && rest[0] === '/'
            ? `${route.prefix}/*`
            : undefined;
    if (label === undefined) continue;
    if (route.host && !(host !== undefined && route.host.test(host))) continue;
    // A method the route does not take: Fastify's router decides (a 404, or another route).
    return route.methods.has(method) ? { route, label } : undefined;
  }
  return undefined;
}

// What the request carries, as Fastify would read it: undefined for no body, 'read' for a body to
// read, false when only the routed path may take it.
function bodyOf(req: IncomingMessage, method: string, limit: number): 'read' | undefined | false {
  if (req.headers['transfer-encoding'] !== undefined) return false;
  const length = req.headers['content-length'];
  const none = length === undefined || length === '0';
  // Fastify reads no body of a GET or HEAD, nor of an untyped request that declares none.
  if (method === 'GET' || method === 'HEAD' || req.headers['content-type'] === undefined)
    return none ? undefined : false;
  if (!BODY_METHODS.has(method)) return false;
  if (length !== undefined && !(DECIMAL_LENGTH.test(length) && Number(length) <= limit)) return false;
  return 'read';
}
