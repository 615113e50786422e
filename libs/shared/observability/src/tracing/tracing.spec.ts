import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import Fastify, { FastifyInstance } from 'fastify';

import { installHttpTracing, requestTraceContext } from './http-tracing';
import {
  currentTraceparent,
  inSpanFrom,
  inTraceOf,
  installTracing,
  shutdownTracing,
  SpanKind,
  traceHeaders,
} from './tracing';

// One order's path in miniature: the gateway forwards the request to a service, the service writes
// an event (its traceparent header is the outbox's), a consumer handles it and writes the next one.
describe('trace context across HTTP and events', () => {
  const exporter = new InMemorySpanExporter();
  let gateway: FastifyInstance;
  let service: FastifyInstance;
  const events: Record<string, string>[] = [];

  beforeAll(async () => {
    installTracing({
      serviceName: 'test',
      config: { exportOtlp: false },
      spanProcessors: [new SimpleSpanProcessor({ exporter })],
    });
    service = Fastify();
    installHttpTracing(service, 'orders');
    service.post('/orders/create', async () => {
      await new Promise((r) => setTimeout(r, 5)); // async work in between keeps the context
      events.push({ traceparent: currentTraceparent()! });
      return { ok: true };
    });
    await service.listen({ port: 0, host: '127.0.0.1' });
    const address = service.server.address() as { port: number };

    gateway = Fastify();
    installHttpTracing(gateway, 'gateway');
    gateway.post('/orders/create', async (request) => {
      const res = await fetch(`http://127.0.0.1:${address.port}/orders/create`, {
        method: 'POST',
        headers: traceHeaders(requestTraceContext(request)),
      });
      return res.json();
    });
    await gateway.ready();
  });

  afterAll(async () => {
    await gateway.close();
    await service.close();
    await shutdownTracing();
  });

  it('gives every span of one order the same trace id, each the child of the one before', async () => {
    const res = await gateway.inject({ method: 'POST', url: '/orders/create' });
    expect(res.statusCode).toBe(200);
    expect(events).toHaveLength(1);

    // order.created consumed, payment.confirmed written by the handler, then consumed in turn.
    await inSpanFrom('order.created process', SpanKind.CONSUMER, events[0], {}, async () => {
      events.push({ traceparent: currentTraceparent()! });
    });
    await inSpanFrom('payment.confirmed process', SpanKind.CONSUMER, events[1], {}, async () => undefined);

    const spans = exporter.getFinishedSpans();
    const names = spans.map((s) => s.name).sort();
    expect(names).toEqual(
      [
        'POST /orders/create',
        'POST /orders/create',
        'order.created process',
        'payment.confirmed process',
      ].sort(),
    );
    const traceIds = new Set(spans.map((s) => s.spanContext().traceId));
    expect(traceIds.size).toBe(1);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    const [edge, svc] = byName('POST /orders/create').sort((a, b) =>
      a.parentSpanContext ? 1 : b.parentSpanContext ? -1 : 0,
    );
    expect(edge.parentSpanContext).toBeUndefined();
    expect(svc.parentSpanContext?.spanId).toBe(edge.spanContext().spanId);
    const consumed = byName('order.created process')[0];
    expect(consumed.parentSpanContext?.spanId).toBe(svc.spanContext().spanId);
    expect(byName('payment.confirmed process')[0].parentSpanContext?.spanId).toBe(
      consumed.spanContext().spanId,
    );
  });

  it('continues a trace the caller started (W3C traceparent in)', async () => {
    exporter.reset();
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await gateway.inject({ method: 'POST', url: '/orders/create', headers: { traceparent: parent } });
    for (const span of exporter.getFinishedSpans()) {
      expect(span.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    }
  });
});

// With nothing to export to, spans are not recorded, yet each one still has ids of its own and carries
// its caller's trace on.
describe('trace context without an exporter', () => {
  beforeAll(() => installTracing({ serviceName: 'test', config: { exportOtlp: false } }));
  afterAll(() => shutdownTracing());

  it('continues the trace in spans that record nothing', async () => {
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const seen = await inSpanFrom(
      'order.created process',
      SpanKind.CONSUMER,
      { traceparent: parent },
      {},
      async () => ({
        traceparent: currentTraceparent(),
        recording: trace.getActiveSpan()?.isRecording(),
      }),
    );
    expect(seen.recording).toBe(false);
    const [, traceId, spanId] = (seen.traceparent ?? '').split('-');
    expect(traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(spanId).not.toBe('00f067aa0ba902b7');
  });

  it("runs work in an event's trace without a span of its own", () => {
    const parent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    expect(inTraceOf({ traceparent: parent }, () => currentTraceparent())).toBe(parent);
    expect(currentTraceparent()).toBeUndefined();
  });
});
