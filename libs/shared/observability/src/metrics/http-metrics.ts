import { FastifyInstance } from 'fastify';

import { MetricsAccess, mayReadMetrics, METRICS_REFUSED } from './metrics-access';
import { Counter, Histogram, metrics, MetricsRegistry } from './metrics-registry';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-format';

export const METRICS_PATH = '/metrics';

interface ResponseSeries {
  requests: ReturnType<Counter['series']>;
  errors: ReturnType<Counter['series']> | undefined; // 5xx only
  duration: ReturnType<Histogram['series']>;
}

// A request that matched no route is one series, whatever its path: raw paths would let any client
// create unbounded label values.
export const UNMATCHED_ROUTE = 'unmatched';

// Counts one answered request: its method, route template, status and time in seconds.
export type HttpResponseRecorder = (
  method: string,
  route: string,
  statusCode: number,
  seconds: number,
) => void;

// HTTP rate, errors and latency per route template (`/orders/:uuid/payment-details`, never the raw
// path) of one service; `service` tells apps apart when several share a process. The gateway's
// embedded hand-off (which answers outside Fastify's hooks) records through the same series.
export function httpResponseRecorder(
  service: string,
  registry: MetricsRegistry = metrics,
): HttpResponseRecorder {
  const requests = registry.counter('http_requests_total', 'HTTP requests answered, by route and status.');
  const errors = registry.counter('http_request_errors_total', 'HTTP requests answered with a 5xx status.');
  const duration = registry.histogram(
    'http_request_duration_seconds',
    'Time from receiving a request to sending its answer, by route.',
  );
  // The series of each method, route and status, kept once seen: a response then counts without
  // building and sorting its label set (routes are templates and statuses few, so this stays small).
  const seriesOf = new Map<string, ResponseSeries>();
  return (method, route, statusCode, seconds) => {
    const key = `${method} ${statusCode} ${route}`;
    let found = seriesOf.get(key);
    if (!found) {
      const labels = { service, method, route };
      const status = String(statusCode);
      found = {
        requests: requests.series({ ...labels, status }),
        errors: statusCode >= 500 ? errors.series({ ...labels, status }) : undefined,
        duration: duration.series(labels),
      };
      seriesOf.set(key, found);
    }
    found.requests.inc();
    found.errors?.inc();
    found.duration.observe(seconds);
  };
}

export function installHttpMetrics(
  fastify: FastifyInstance,
  service: string,
  registry: MetricsRegistry = metrics,
): void {
  const record = httpResponseRecorder(service, registry);
  // Fastify times every reply itself, from routing to the response's 'finish' (`reply.elapsedTime`,
  // in ms): a start time of our own per request (a WeakMap entry and a BigInt) was the same work twice.
  // A callback hook, not an async one: no promise per request.
  fastify.addHook('onResponse', (request, reply, done) => {
    record(
      request.method,
      request.routeOptions?.url ?? UNMATCHED_ROUTE,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}

// GET /metrics with the registry's text. Separate from the instrumentation: where it is served (a
// service's own port, the gateway's loopback admin listener, a port or credential of its own) is the
// caller's choice.
export function registerMetricsRoute(
  fastify: FastifyInstance,
  registry: MetricsRegistry = metrics,
  access: MetricsAccess = { open: true },
): void {
  fastify.get(METRICS_PATH, async (request, reply) => {
    if (!mayReadMetrics(access, request.headers.authorization))
      return reply
        .code(401)
        .header('content-type', 'application/problem+json')
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: METRICS_REFUSED });
    return reply
      .header('content-type', PROMETHEUS_CONTENT_TYPE)
      .header('cache-control', 'no-store')
      .send(await registry.render());
  });
}
