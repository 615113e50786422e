import { Context, context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { FastifyInstance, FastifyRequest } from 'fastify';

import { extractTraceContext, startSpan } from './tracing';

const spans = new WeakMap<object, HttpServerSpan>();

// The trace context of a request (its server span), for calls made on its behalf (the gateway's
// upstream request).
export function requestTraceContext(request: object): Context {
  return spans.get(request)?.ctx ?? context.active();
}

// A server span for one request, continuing the caller's traceparent: `ctx` is the context to run
// its work in (and to propagate), `end` names the span after its route and closes it with the status.
export interface HttpServerSpan {
  ctx: Context;
  end(route: string, statusCode: number): void;
}

export function startHttpServerSpan(
  service: string,
  method: string,
  headers: Record<string, unknown>,
): HttpServerSpan {
  const { span, ctx } = startSpan(method, SpanKind.SERVER, extractTraceContext(headers));
  span.setAttributes({ 'onramp.service': service, 'http.request.method': method });
  return {
    ctx,
    end: (route, statusCode) => {
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': statusCode });
      if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}

// A server span per request (startHttpServerSpan); the handler runs inside it, so what it writes
// (outbox events) and calls carries the same trace.
export function installHttpTracing(fastify: FastifyInstance, service: string): void {
  const inContext = (request: FastifyRequest, _reply: unknown, done: () => void) => {
    const ctx = spans.get(request)?.ctx;
    if (ctx) context.with(ctx, done);
    else done();
  };
  fastify.addHook('onRequest', (request, _reply, done) => {
    const span = startHttpServerSpan(service, request.method, request.headers);
    spans.set(request, span);
    context.with(span.ctx, done);
  });
  // Fastify runs later hooks outside onRequest's async context: enter it again before the handler.
  fastify.addHook('preHandler', inContext);
  fastify.addHook('onResponse', (request, reply, done) => {
    spans.get(request)?.end(request.routeOptions?.url ?? 'unmatched', reply.statusCode);
    done();
  });
}
