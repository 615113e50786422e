import { portOf, resolvePorts, SERVICES } from '@onramp/platform-runner';

// Each service's database pool over a probe, from the apps' own /metrics (open in sandbox): how many
// checkouts there were and what share queued for a connection, and the most connections busy at once.
// What DB_POOL_SIZE's defaults are set from (docs/deploy.md, "Database connections").
export interface PoolReading {
  checkouts: number;
  waited: number;
  busyPeak: number; // since the process started
  max: number;
}

export type PoolSnapshot = Map<string, PoolReading>; // by schema

const FIELDS: Record<string, keyof PoolReading> = {
  db_pool_checkouts_total: 'checkouts',
  db_pool_checkouts_waited_total: 'waited',
  db_pool_busy_connections_peak: 'busyPeak',
  db_pool_max_connections: 'max',
};

// Distributed, every service's port; embedded, one process answers for all schemas on each, so one
// port (six renders at once would queue the settlement's own metric queries for connections).
export async function readPools(env: Record<string, string>, distributed: boolean): Promise<PoolSnapshot> {
  const pools: PoolSnapshot = new Map();
  const all = resolvePorts(env);
  const apps = distributed ? SERVICES : (['orders'] as const);
  const pages = await Promise.all(
    apps.map((app) =>
      fetch(`http://127.0.0.1:${portOf(all, app)}/metrics`, { signal: AbortSignal.timeout(5000) })
        .then((r) => (r.ok ? r.text() : ''))
        .catch(() => ''),
    ),
  );
  for (const page of pages) {
    for (const line of page.split('\n')) {
      const m = /^(db_pool_[a-z_]+)\{schema="([^"]+)"\} (\S+)$/.exec(line);
      const field = m && FIELDS[m[1]];
      if (!m || !field) continue;
      const reading = pools.get(m[2]) ?? { checkouts: 0, waited: 0, busyPeak: 0, max: 0 };
      reading[field] = Number(m[3]);
      pools.set(m[2], reading);
    }
  }
  return pools;
}

// "orders 1.2 % of 10,400 waited; payments 0 % of 3,100; ...": the schemas that checked out anything.
export function formatPoolWindow(before: PoolSnapshot, after: PoolSnapshot): string {
  const parts: string[] = [];
  for (const [schema, a] of after) {
    const b = before.get(schema) ?? { checkouts: 0, waited: 0, busyPeak: 0, max: a.max };
    const checkouts = a.checkouts - b.checkouts;
    if (checkouts <= 0) continue;
    const waited = (100 * (a.waited - b.waited)) / checkouts;
    parts.push(`${schema} ${waited.toFixed(1)} % of ${checkouts.toLocaleString('en-US')}`);
  }
  return parts.join('; ') || 'no checkouts';
}

// "orders 7 of 10, payments 3 of 10, ...": the busiest moment of each pool since the platform started.
export function formatPoolPeaks(pools: PoolSnapshot): string {
  return (
    [...pools]
      .filter(([, r]) => r.checkouts > 0)
      .map(([schema, r]) => `${schema} ${r.busyPeak} of ${r.max}`)
      .join(', ') || 'none'
  );
}
