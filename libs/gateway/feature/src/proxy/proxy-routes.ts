import { IncomingHttpHeaders, Server } from 'node:http';

import proxy from '@fastify/http-proxy';
import { Logger } from '@nestjs/common';
import { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';

import { sendProblem } from '@onramp/http';
import { requestTraceContext } from '@onramp/observability';

import { AdminAuth, adminUpstreamHeaders, authenticateOperator } from '../admin/admin-auth';
import { TrustedProxies } from '../edge/trusted-proxies';
import { ResolvedRoute } from '../routes';
import { clientUpstreamHeaders } from './client-upstream-headers';
import { handOff } from './in-process-handoff';
import { InProcessUpstreams } from './in-process-upstreams';
import { plainUpstreamPath } from './plain-upstream-path';
import { codesOf, replyUpstreamProblem, upstreamProblem } from './upstream-error';

export interface ProxyOptions {
  connectTimeoutMs: number;
  upstreamTimeoutMs: number;
  trustedProxies: TrustedProxies;
  // Ingress mode: the route only answers for this Host (any port).
  hostname?: string;
  // Admin listener: operators are authenticated here and never reach a service with their key.
  admin?: AdminAuth;
  // Embedded mode: the services of this process, reached in memory instead of over loopback TCP.
  inProcess?: InProcessUpstreams;
}

const log = new Logger('GatewayProxy');

// The path and query the upstream will see, as @fastify/reply-from builds them (the path from `dest`,
// the query from the client's URL): what the admin credential is bound to.
const UPSTREAM_PATH = Symbol('upstreamPath');
type WithUpstreamPath = FastifyRequest & { [UPSTREAM_PATH]?: string };
function upstreamPathOf(dest: string, upstreamUrl: string, clientUrl: string): string {
  const url = new URL(dest.startsWith('//') ? `.${dest}` : dest, upstreamUrl);
  const query = clientUrl.indexOf('?');
  return url.pathname + (url.search || (query > 0 ? clientUrl.slice(query) : ''));
}

// The headers a service sees (client-upstream-headers.ts); an operator's request also carries the
// admin credential bound to its path.
function upstreamHeaders(
  request: FastifyRequest,
  headers: IncomingHttpHeaders,
  opts: ProxyOptions,
  upstreamPath: string | undefined,
): IncomingHttpHeaders {
  const forwarded = clientUpstreamHeaders(
    request.raw,
    headers,
    String(request.headers['x-request-id']),
    requestTraceContext(request),
    opts.trustedProxies,
  );
  return opts.admin && upstreamPath !== undefined
    ? adminUpstreamHeaders(forwarded, request, opts.admin, upstreamPath)
    : forwarded;
}

export function hostConstraint(hostname: string): RegExp {
  const escaped = hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}(:\\d+)?$`, 'i');
}

// One @fastify/http-proxy registration per route: same path upstream, body bytes as received
// (the gateway's parser buffered them), bounded connect and response times, no retries (a POST
// that reached the service must not be sent twice; idempotency is the client's Idempotency-Key).
export async function registerProxyRoutes(
  fastify: FastifyInstance,
  routes: ResolvedRoute[],
  opts: ProxyOptions,
): Promise<void> {
  await fastify.register(async (scope) => {
    // Body-parser errors (413) and rejected destinations (400) of proxied routes; set here because
    // these routes are registered before Nest installs its own error handler at init().
    scope.setErrorHandler((err, request, reply) => sendProblem(reply, err, request.url.split('?')[0]));
    for (const route of routes) await registerRoute(scope, route, opts);
  });
}

async function registerRoute(
  fastify: FastifyInstance,
  route: ResolvedRoute,
  opts: ProxyOptions,
): Promise<void> {
  // Embedded mode: requests to a service of this process are handed to its server (handOff) while
  // it runs; operators' (admin listener) keep the proxy's path.
  const inProcessPort =
    opts.inProcess && !opts.admin ? InProcessUpstreams.portOf(route.upstreamUrl) : undefined;
  const handOffPlain =
    inProcessPort === undefined ? undefined : handOffPlainPaths(route, inProcessPort, opts);
  await fastify.register(proxy, {
    upstream: route.upstreamUrl,
    prefix: route.path,
    rewritePrefix: route.upstreamPath ?? route.path,
    routes: route.match === 'exact' ? ['/'] : ['/', '/*'],
    httpMethods: route.methods,
    constraints: opts.hostname ? { host: hostConstraint(opts.hostname) } : undefined,
    preHandler: opts.admin ? authenticateOperator(opts.admin, route.writeScope ?? 'merchants') : handOffPlain,
    proxyPayloads: false,
    disableRequestLogging: true,
    destroyAgent: true,
    undici: {
      connect:
        opts.inProcess && InProcessUpstreams.reachable(route.upstreamUrl)
          ? opts.inProcess.connector(opts.connectTimeoutMs)
          : { timeout: opts.connectTimeoutMs, rejectUnauthorized: true },
      headersTimeout: opts.upstreamTimeoutMs,
      bodyTimeout: opts.upstreamTimeoutMs,
    },
    handler: (
      request: FastifyRequest,
      reply: FastifyReply & { from: FastifyReply['from'] },
      dest: string,
      options,
    ) => {
      const body = request.body;
      const server = inProcessPort === undefined ? undefined : opts.inProcess?.serverOn(inProcessPort);
      if (server && inProcessPort !== undefined) {
        const path = upstreamPathOf(dest, route.upstreamUrl, request.url);
        return handOffTo(server, inProcessPort, path, request, reply, route, opts);
      }
      if (opts.admin)
        (request as WithUpstreamPath)[UPSTREAM_PATH] = upstreamPathOf(dest, route.upstreamUrl, request.url);
      return reply.from(dest, {
        ...options,
        ...(Buffer.isBuffer(body)
          ? { body, contentType: request.headers['content-type'] ?? 'application/octet-stream' }
          : {}),
      });
    },
    replyOptions: {
      retryDelay: () => null,
      rewriteRequestHeaders: (request, headers) =>
        upstreamHeaders(
          request as FastifyRequest,
          headers,
          opts,
          (request as WithUpstreamPath)[UPSTREAM_PATH],
        ),
      // Our Fastify instances are plain HTTP/1; reply-from types the reply for any server kind.
      onError: (reply, { error }) => {
        const path = reply.request.url.split('?')[0];
        const problem = upstreamProblem(error);
        const cause = codesOf(error).join(' < ') || error.message;
        log.warn(`${route.upstream}: ${problem.getStatus()} for ${reply.request.method} ${path} (${cause})`);
        replyUpstreamProblem(reply as FastifyReply, problem, path);
      },
    },
  });
}

// Embedded mode, a route whose service runs in this process: a request with a plain path
// (plain-upstream-path.ts) is handed to the service before the proxy's handler, which would resolve
// the same path through four URL parses and its checks (about 35 us of the platform's thread a
// created order: docs/performance-journal.md). The hand-off hijacks the reply, so Fastify skips the
// handler; any other path, or a service not here, goes on to it.
function handOffPlainPaths(route: ResolvedRoute, port: number, opts: ProxyOptions): preHandlerHookHandler {
  const upstreamPrefix = route.upstreamPath ?? route.path;
  return (request, reply, done) => {
    const server = opts.inProcess?.serverOn(port);
    const path = server && plainUpstreamPath(request.url, route.path, upstreamPrefix);
    if (server && path !== undefined) handOffTo(server, port, path, request, reply, route, opts);
    done();
  };
}

function handOffTo(
  server: Server,
  port: number,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
  route: ResolvedRoute,
  opts: ProxyOptions,
): void {
  handOff(request, reply, {
    server,
    port,
    path,
    headers: upstreamHeaders(request, request.headers, opts, undefined),
    upstreamTimeoutMs: opts.upstreamTimeoutMs,
    upstream: route.upstream,
  });
}
