import Fastify from 'fastify';

import { installHttpMetrics, registerMetricsRoute } from './http-metrics';
import { MetricsRegistry } from './metrics-registry';

describe('MetricsRegistry', () => {
  it('renders counters, gauges and histograms in the Prometheus text format', async () => {
    const registry = new MetricsRegistry();
    registry.counter('jobs_total', 'Jobs.').inc({ outcome: 'ok' });
    registry.counter('jobs_total', 'Jobs.').inc({ outcome: 'ok' }, 2);
    registry.gauge('queue_depth', 'Depth.').set({ queue: 'a"b' }, 7);
    registry.histogram('work_seconds', 'Work.', [0.1, 1]).observe({ kind: 'x' }, 0.5);
    const text = await registry.render();
    expect(text).toContain('# TYPE jobs_total counter\njobs_total{outcome="ok"} 3\n');
    expect(text).toContain('queue_depth{queue="a\\"b"} 7');
    expect(text).toContain('work_seconds_bucket{kind="x",le="0.1"} 0');
    expect(text).toContain('work_seconds_bucket{kind="x",le="1"} 1');
    expect(text).toContain('work_seconds_bucket{kind="x",le="+Inf"} 1');
    expect(text).toContain('work_seconds_sum{kind="x"} 0.5');
    expect(text).toContain('work_seconds_count{kind="x"} 1');
  });

  it('asks collectors on every scrape, merges same-named families, and survives a failing one', async () => {
    const registry = new MetricsRegistry();
    const family = (schema: string, value: number) => ({
      name: 'outbox_unpublished',
      help: 'Unpublished.',
      type: 'gauge' as const,
      samples: [{ labels: { schema }, value }],
    });
    registry.addCollector('a', async () => [family('orders', 1)]);
    const removeB = registry.addCollector('b', async () => [family('kyc', 2)]);
    registry.addCollector('broken', () => Promise.reject(new Error('db down')));
    const text = await registry.render();
    expect(text.match(/# TYPE outbox_unpublished gauge/g)).toHaveLength(1);
    expect(text).toContain('outbox_unpublished{schema="orders"} 1\noutbox_unpublished{schema="kyc"} 2');
    expect(text).toContain('metrics_collector_errors_total{collector="broken"} 1');
    removeB();
    expect(await registry.render()).not.toContain('schema="kyc"');
  });

  it("counts a kept series into the same sample as its labels, whatever the labels' order", async () => {
    const registry = new MetricsRegistry();
    const jobs = registry.counter('jobs_total', 'Jobs.');
    const ok = jobs.series({ outcome: 'ok', queue: 'a' });
    ok.inc();
    jobs.inc({ queue: 'a', outcome: 'ok' }, 2);
    ok.inc(4);
    const work = registry.histogram('work_seconds', 'Work.', [0.1, 1]);
    work.series({ kind: 'x' }).observe(0.05);
    work.observe({ kind: 'x' }, 2);
    const text = await registry.render();
    expect(text).toContain('jobs_total{outcome="ok",queue="a"} 7\n');
    expect(text).toContain('work_seconds_bucket{kind="x",le="0.1"} 1');
    expect(text).toContain('work_seconds_bucket{kind="x",le="1"} 1');
    expect(text).toContain('work_seconds_count{kind="x"} 2');
    expect(text).toContain('work_seconds_sum{kind="x"} 2.05');
  });

  it('keeps every label set apart, one label or several', async () => {
    const registry = new MetricsRegistry();
    const c = registry.counter('c_total', 'C.');
    c.inc({ a: 'b=c' });
    c.inc({ a: 'b' }, 2);
    c.inc({ 'a=b': 'c' } as never, 3); // not a valid name, but still its own series
    c.inc({ a: 'b', d: 'e' }, 4);
    c.inc({}, 5);
    c.inc({ a: 'b' }, 10);
    const text = await registry.render();
    expect(text).toContain('c_total{a="b=c"} 1\n');
    expect(text).toContain('c_total{a="b"} 12\n');
    expect(text).toContain('c_total{a="b",d="e"} 4\n');
    expect(text).toContain('c_total 5\n');
  });

  it('refuses one name with two types', () => {
    const registry = new MetricsRegistry();
    registry.counter('x', 'X.');
    expect(() => registry.gauge('x', 'X.')).toThrow(/another type/);
  });
});

describe('HTTP metrics', () => {
  it('counts requests and errors and times them by route template, never by raw path', async () => {
    const registry = new MetricsRegistry();
    const app = Fastify();
    installHttpMetrics(app, 'orders', registry);
    registerMetricsRoute(app, registry);
    app.get('/orders/:uuid', async () => ({ ok: true }));
    app.get('/boom', async (_req, reply) => reply.status(503).send({}));
    await app.inject({ method: 'GET', url: '/orders/1' });
    await app.inject({ method: 'GET', url: '/orders/2' });
    await app.inject({ method: 'GET', url: '/boom' });
    await app.inject({ method: 'GET', url: '/no/such/path' });
    const res = await app.inject({ method: 'GET', url: '/metrics' });
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.body).toContain(
      'http_requests_total{service="orders",method="GET",route="/orders/:uuid",status="200"} 2',
    );
    expect(res.body).toContain(
      'http_request_errors_total{service="orders",method="GET",route="/boom",status="503"} 1',
    );
    expect(res.body).toContain('route="unmatched",status="404"} 1');
    expect(res.body).toContain(
      'http_request_duration_seconds_count{service="orders",method="GET",route="/orders/:uuid"} 2',
    );
    expect(res.body).not.toContain('/orders/1');
    await app.close();
  });

  it('times a request in seconds, from its arrival to its answer', async () => {
    const registry = new MetricsRegistry();
    const app = Fastify();
    installHttpMetrics(app, 'orders', registry);
    registerMetricsRoute(app, registry);
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 120));
      return {};
    });
    await app.inject({ method: 'GET', url: '/slow' });
    const body = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const sum = Number(/http_request_duration_seconds_sum\{[^}]*route="\/slow"\} (\S+)/.exec(body)?.[1]);
    expect(sum).toBeGreaterThanOrEqual(0.11);
    expect(sum).toBeLessThan(5);
    await app.close();
  });
});
