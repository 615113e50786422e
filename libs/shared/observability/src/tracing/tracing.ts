import { Context, context, propagation, Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  SpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

export const TRACER_NAME = 'onramp';

let provider: TracerProvider | undefined;

// What the standard OTEL_* variables say about this process (the OTLP exporter reads the rest itself).
export interface TracingConfig {
  exportOtlp: boolean; // OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set
  serviceName?: string; // OTEL_SERVICE_NAME, over the app's own name
}

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadTracingConfig(source: NodeJS.ProcessEnv): TracingConfig {
  return {
    exportOtlp: Boolean(source.OTEL_EXPORTER_OTLP_ENDPOINT || source.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    ...(source.OTEL_SERVICE_NAME ? { serviceName: source.OTEL_SERVICE_NAME } : {}),
  };
}

export interface TracingOptions {
  serviceName: string;
  config: TracingConfig;
  // Tests pass an in-memory exporter's processor; otherwise OTLP when the endpoint is configured.
  spanProcessors?: SpanProcessor[];
}

// One tracer provider per process (under `npm start` the seven apps share it; the first one names
// the resource). Spans are always made, so trace context always propagates; they are exported only
// with OTEL_EXPORTER_OTLP_ENDPOINT (OTLP over HTTP, the standard OTEL_* variables apply). With
// nothing to export them to, spans are not recorded (AlwaysOffSampler): each still gets its ids and
// carries the trace on (traceparent flags 00), but no attributes, timings or status are kept for
// nobody (OpenTelemetry was 4 % of order creation's CPU, docs/performance-journal.md).
export function installTracing(opts: TracingOptions): void {
  if (provider) return;
  const processors =
    opts.spanProcessors ??
    (opts.config.exportOtlp ? [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })] : []);
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': opts.config.serviceName || opts.serviceName }),
    spanProcessors: processors,
    ...(processors.length === 0 ? { sampler: new AlwaysOffSampler() } : {}),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
}

export async function shutdownTracing(): Promise<void> {
  const p = provider;
  provider = undefined;
  await p?.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

const tracer = () => trace.getTracer(TRACER_NAME);

// The parent context carried by W3C headers (traceparent, tracestate); the active one when none.
export function extractTraceContext(headers: Record<string, unknown>): Context {
  return propagation.extract(context.active(), headers, {
    get: (carrier, key) => {
      const value = (carrier as Record<string, unknown>)[key];
      return typeof value === 'string' || Array.isArray(value) ? (value as string | string[]) : undefined;
    },
    keys: (carrier) => Object.keys(carrier as object),
  });
}

// `traceparent` (and `tracestate`) of a context, to put on an outgoing request or event.
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

export function currentTraceparent(): string | undefined {
  return traceHeaders().traceparent;
}

// Runs `work` in the trace of `headers` (an event's) without a span of its own: what it reads as the
// current trace (currentTraceparent, the trace headers of the events it prepares) is that one.
export function inTraceOf<T>(headers: Record<string, unknown>, work: () => T): T {
  return context.with(extractTraceContext(headers), work);
}

export function startSpan(name: string, kind: SpanKind, parent: Context): { span: Span; ctx: Context } {
  const span = tracer().startSpan(name, { kind }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

// Runs `fn` in a span that continues the trace of `headers` (an event's, a request's).
export async function inSpanFrom<T>(
  name: string,
  kind: SpanKind,
  headers: Record<string, unknown>,
  attributes: Record<string, string>,
  fn: () => Promise<T>,
): Promise<T> {
  const { span, ctx } = startSpan(name, kind, extractTraceContext(headers));
  span.setAttributes(attributes);
  try {
    return await context.with(ctx, fn);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

export { SpanKind };
// A trace context (a request's span, an event's trace), for apps that pass one on without OpenTelemetry.
export type TraceContext = Context;
