import { TLSSocket } from 'node:tls';

import proxy from '@fastify/http-proxy';
import { Logger } from '@nestjs/common';
import { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { sendProblem } from '@onramp/http';
import { requestTraceContext, traceHeaders } from '@onramp/observability';

import { TrustedProxies } from '../edge/trusted-proxies';
import { ResolvedRoute } from '../routes';
import { forwardedHeaders } from './forwarded-headers';
import { codesOf, replyUpstreamProblem, upstreamProblem } from './upstream-error';

export interface ProxyOptions {
  connectTimeoutMs: number;
  upstreamTimeoutMs: number;
  trustedProxies: TrustedProxies;
  // Ingress mode: the route only answers for this Host (any port).
  hostname?: string;
}

const log = new Logger('GatewayProxy');

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
  await fastify.register(proxy, {
    upstream: route.upstreamUrl,
    prefix: route.path,
    rewritePrefix: route.upstreamPath ?? route.path,
    routes: route.match === 'exact' ? ['/'] : ['/', '/*'],
    httpMethods: route.methods,
    constraints: opts.hostname ? { host: hostConstraint(opts.hostname) } : undefined,
    proxyPayloads: false,
    disableRequestLogging: true,
    destroyAgent: true,
    undici: {
      connect: { timeout: opts.connectTimeoutMs, rejectUnauthorized: true },
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
      return reply.from(dest, {
        ...options,
        ...(Buffer.isBuffer(body)
          ? { body, contentType: request.headers['content-type'] ?? 'application/octet-stream' }
          : {}),
      });
    },
    replyOptions: {
      retryDelay: () => null,
      rewriteRequestHeaders: (request, headers) => ({
        ...forwardedHeaders(
          headers,
          {
            remoteAddress: request.raw.socket.remoteAddress,
            encrypted: request.raw.socket instanceof TLSSocket,
            host: request.headers.host,
            requestId: String(request.headers['x-request-id']),
          },
          opts.trustedProxies.has(request.raw.socket.remoteAddress),
        ),
        // The service continues the gateway's span: one trace from the edge to the events.
        ...traceHeaders(requestTraceContext(request)),
      }),
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
