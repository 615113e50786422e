import { Context, context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { FastifyInstance, FastifyRequest } from 'fastify';

import { extractTraceContext, startSpan } from './tracing';

const contexts = new WeakMap<object, Context>();

// The trace context of a request (its server span), for calls made on its behalf (the gateway's
// upstream request).
export function requestTraceContext(request: object): Context {
  return contexts.get(request) ?? context.active();
}

// A server span per request, continuing the caller's traceparent; the handler runs inside it, so
// what it writes (outbox events) and calls carries the same trace.
export function installHttpTracing(fastify: FastifyInstance, service: string): void {
  const inContext = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    const ctx = contexts.get(request);
    if (ctx) context.with(ctx, done);
    else done();
  };
  fastify.addHook('onRequest', (request, _reply, done) => {
    const { span, ctx } = startSpan(
      `${request.method}`,
      SpanKind.SERVER,
      extractTraceContext(request.headers),
    );
    span.setAttributes({ 'onramp.service': service, 'http.request.method': request.method });
    contexts.set(request, ctx);
    context.with(ctx, done);
  });
  // Fastify runs later hooks outside onRequest's async context: enter it again before the handler.
  fastify.addHook('preHandler', inContext);
  fastify.addHook('onResponse', (request, reply, done) => {
    const ctx = contexts.get(request);
    const span = ctx ? trace.getSpan(ctx) : undefined;
    if (span) {
      const route = request.routeOptions?.url ?? 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': reply.statusCode });
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}
