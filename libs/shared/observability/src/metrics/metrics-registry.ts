import { formatFamily, Labels, MetricFamily, Sample } from './prometheus-format';

// One key per label set whatever the order its names were given in (any fixed order will do: the key
// is never shown); a plain comparison, since localeCompare is slow and this runs twice per request.
// A single label (a webhook attempt's outcome, twice per delivery) is keyed without the sort and the
// JSON: name, NUL, value, which no other single label's key equals (no name holds a NUL) and no JSON
// key does (those start with "[", where a label name cannot).
const keyOf = (labels: Labels): string => {
  const names = Object.keys(labels);
  if (names.length === 1) return `${names[0]}\u0000${labels[names[0]]}`;
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
};

abstract class Instrument {
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  abstract collect(): MetricFamily;
}

export class Counter extends Instrument {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  inc(labels: Labels = {}, by = 1): void {
    this.entry(labels).value += by;
  }

  // One label set's series, kept by a hot path so that counting skips the lookup of its labels.
  series(labels: Labels = {}): { inc(by?: number): void } {
    const entry = this.entry(labels);
    return {
      inc: (by = 1) => {
        entry.value += by;
      },
    };
  }

  private entry(labels: Labels): { labels: Labels; value: number } {
    const key = keyOf(labels);
    let entry = this.values.get(key);
    if (!entry) this.values.set(key, (entry = { labels, value: 0 }));
    return entry;
  }

  collect(): MetricFamily {
    const samples = [...this.values.values()].map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: 'counter', samples };
  }
}

export class Gauge extends Instrument {
  private readonly values = new Map<string, { labels: Labels; value: number }>();

  set(labels: Labels, value: number): void {
    this.values.set(keyOf(labels), { labels, value });
  }

  collect(): MetricFamily {
    const samples = [...this.values.values()].map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: 'gauge', samples };
  }
}

// Seconds: the default buckets span a fast HTTP answer to a slow settlement.
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export class Histogram extends Instrument {
  private readonly values = new Map<
    string,
    { labels: Labels; counts: number[]; sum: number; count: number }
  >();

  constructor(
    name: string,
    help: string,
    private readonly buckets: number[] = DEFAULT_BUCKETS,
  ) {
    super(name, help);
  }

  observe(labels: Labels, value: number): void {
    this.series(labels).observe(value);
  }

  // One label set's series, kept by a hot path so that observing skips the lookup of its labels.
  series(labels: Labels): { observe(value: number): void } {
    const key = keyOf(labels);
    let entry = this.values.get(key);
    if (!entry)
      this.values.set(key, (entry = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    const { buckets } = this;
    const series = entry;
    return {
      observe: (value: number) => {
        for (let i = 0; i < buckets.length; i++) if (value <= buckets[i]!) series.counts[i]!++;
        series.sum += value;
        series.count++;
      },
    };
  }

  collect(): MetricFamily {
    const samples: Sample[] = [];
    for (const { labels, counts, sum, count } of this.values.values()) {
      this.buckets.forEach((le, i) =>
        samples.push({ suffix: '_bucket', labels: { ...labels, le: String(le) }, value: counts[i] }),
      );
      samples.push({ suffix: '_bucket', labels: { ...labels, le: '+Inf' }, value: count });
      samples.push({ suffix: '_sum', labels, value: sum });
      samples.push({ suffix: '_count', labels, value: count });
    }
    return { name: this.name, help: this.help, type: 'histogram', samples };
  }
}

// Read at scrape time (database counts, chain balances); a failing collector is left out of that
// scrape and counted, never failing the whole page.
export type Collector = () => Promise<MetricFamily[]>;

// The process's metrics: instruments updated in place, plus collectors asked on every scrape.
// Only this registry knows the values; how they are exposed (a /metrics route on a service port,
// the gateway's loopback admin listener) is decided by whoever calls render().
export class MetricsRegistry {
  private readonly instruments = new Map<string, Instrument>();
  private readonly collectors = new Map<string, Collector>();
  private readonly collectorErrors = new Counter(
    'metrics_collector_errors_total',
    'Scrape-time collectors that failed (their metrics were missing from that scrape).',
  );

  counter(name: string, help: string): Counter {
    return this.instrument(name, () => new Counter(name, help), Counter);
  }

  gauge(name: string, help: string): Gauge {
    return this.instrument(name, () => new Gauge(name, help), Gauge);
  }

  histogram(name: string, help: string, buckets?: number[]): Histogram {
    return this.instrument(name, () => new Histogram(name, help, buckets), Histogram);
  }

  // Keyed so a component registered twice (tests, several apps in one process) replaces itself.
  addCollector(key: string, collector: Collector): () => void {
    this.collectors.set(key, collector);
    return () => {
      if (this.collectors.get(key) === collector) this.collectors.delete(key);
    };
  }

  async render(): Promise<string> {
    const families: MetricFamily[] = [...this.instruments.values()].map((i) => i.collect());
    const collected = await Promise.all(
      [...this.collectors.entries()].map(async ([key, collect]) => {
        try {
          return await collect();
        } catch {
          this.collectorErrors.inc({ collector: key });
          return [];
        }
      }),
    );
    families.push(...mergeByName(collected.flat()), this.collectorErrors.collect());
    return families
      .filter((f) => f.samples.length > 0)
      .map(formatFamily)
      .join('');
  }

  private instrument<T extends Instrument>(
    name: string,
    create: () => T,
    kind: new (...args: never[]) => T,
  ): T {
    const existing = this.instruments.get(name);
    if (existing) {
      if (!(existing instanceof kind))
        throw new Error(`metric ${name} is already registered as another type`);
      return existing;
    }
    const created = create();
    this.instruments.set(name, created);
    return created;
  }
}

// One HELP/TYPE block per name even when several collectors report it (one per schema, say).
function mergeByName(families: MetricFamily[]): MetricFamily[] {
  const byName = new Map<string, MetricFamily>();
  for (const f of families) {
    const seen = byName.get(f.name);
    if (seen) seen.samples.push(...f.samples);
    else byName.set(f.name, { ...f, samples: [...f.samples] });
  }
  return [...byName.values()];
}

// One registry per process: in `npm start` the seven apps share it and tell themselves apart by
// their `service` label.
export const metrics = new MetricsRegistry();
