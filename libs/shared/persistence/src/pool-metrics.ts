import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

import { MetricFamily, metrics } from '@onramp/observability';

// What DB_POOL_SIZE is sized by (docs/deploy.md, "Database connections"): how many of a process's
// checkouts found every connection busy and queued, and the most connections it ever had busy at once.
// A pool whose checkouts rarely wait is large enough; one that waits often and has the database's CPU
// to spare is too small. Counted in the pool's own `connect` (one per transaction or lone statement,
// TypeORM's only way in), so the count costs a few field reads, not a timer or a query.
export interface PoolUse {
  checkouts: number;
  waited: number; // found the pool full with none idle: queued until a connection came back
  busyPeak: number; // most connections checked out at once since the process started
}

type PoolInternals = Pool & { options: { max: number }; ending?: boolean };

export function watchPoolUse(ds: DataSource, schema: string): PoolUse | undefined {
  const pool = (ds.driver as unknown as { master?: PoolInternals }).master;
  if (!pool) return undefined;
  const use: PoolUse = { checkouts: 0, waited: 0, busyPeak: 0 };
  const max = pool.options.max;
  const connect = pool.connect;
  // A checkout waits when the connections free for it (idle, or still to be opened) are all promised
  // to checkouts queued before it: pg-pool hands idle ones out on the next tick, so several checkouts
  // of one tick all see the same idle connection.
  pool.connect = function countedConnect(this: PoolInternals, ...args: unknown[]) {
    use.checkouts += 1;
    if (pool.waitingCount >= pool.idleCount + max - pool.totalCount) use.waited += 1;
    return (connect as (...a: unknown[]) => unknown).apply(this, args);
  } as Pool['connect'];
  pool.on('acquire', () => {
    const busy = pool.totalCount - pool.idleCount;
    if (busy > use.busyPeak) use.busyPeak = busy;
  });
  const labels = { schema };
  const unregister = metrics.addCollector(`db-pool:${schema}`, async (): Promise<MetricFamily[]> => {
    if (pool.ending) {
      unregister();
      return [];
    }
    const busy = pool.totalCount - pool.idleCount;
    // One sample per family, labelled with the schema, but for the connections by state.
    const one = (type: MetricFamily['type'], name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type,
      samples: [{ labels, value }],
    });
    return [
      {
        name: 'db_pool_connections',
        help: 'Database connections of the pool, by state.',
        type: 'gauge',
        samples: [
          { labels: { ...labels, state: 'busy' }, value: busy },
          { labels: { ...labels, state: 'idle' }, value: pool.idleCount },
        ],
      },
      one('gauge', 'db_pool_max_connections', 'Connections the pool may open (DB_POOL_SIZE).', max),
      one(
        'gauge',
        'db_pool_waiting_checkouts',
        'Checkouts queued now for a connection to come back.',
        pool.waitingCount,
      ),
      one(
        'gauge',
        'db_pool_busy_connections_peak',
        'Most connections checked out at once since the process started.',
        use.busyPeak,
      ),
      one(
        'counter',
        'db_pool_checkouts_total',
        'Connections checked out (one per transaction or lone statement).',
        use.checkouts,
      ),
      one(
        'counter',
        'db_pool_checkouts_waited_total',
        'Checkouts that found every connection busy and queued for one.',
        use.waited,
      ),
    ];
  });
  return use;
}
