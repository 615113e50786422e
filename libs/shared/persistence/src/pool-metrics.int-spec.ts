import { DataSource } from 'typeorm';

import { metrics } from '@onramp/observability';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { openServiceDataSource } from './data-source';
import { watchPoolUse } from './pool-metrics';

const SCHEMA = 'pooltest';

const sample = (page: string, name: string, extra = ''): number | undefined => {
  const line = page
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && l.includes(`schema="${SCHEMA}"`) && l.includes(extra));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

// On real Postgres: what an operator sizes DB_POOL_SIZE by, from the pool's own checkouts.
describe('database pool use in /metrics (integration, real Postgres)', () => {
  let ds: DataSource;
  const servers = loadInfraConfig();

  beforeAll(async () => {
    const url = await createDatabase(servers.databaseUrl as string);
    ds = await openServiceDataSource({ url, schema: SCHEMA, entities: [], migrations: [], poolSize: 2 });
  });

  afterAll(async () => {
    await ds?.destroy();
  });

  it('counts checkouts, those that queued for a connection, and the busiest moment', async () => {
    const use = watchPoolUse(ds, SCHEMA)!;
    await ds.query('SELECT 1');
    expect(use).toEqual({ checkouts: 1, waited: 0, busyPeak: 1 });

    // Four statements that each hold a connection for a while, on a pool of two: two of them queue.
    await Promise.all([1, 2, 3, 4].map(() => ds.query('SELECT pg_sleep(0.1)')));
    expect(use.checkouts).toBe(5);
    expect(use.waited).toBe(2);
    expect(use.busyPeak).toBe(2);

    // A transaction is one checkout, whatever it runs.
    await ds.transaction(async (m) => {
      await m.query('SELECT 1');
      await m.query('SELECT 2');
    });
    expect(use.checkouts).toBe(6);

    const page = await metrics.render();
    expect(sample(page, 'db_pool_checkouts_total')).toBe(6);
    expect(sample(page, 'db_pool_checkouts_waited_total')).toBe(2);
    expect(sample(page, 'db_pool_busy_connections_peak')).toBe(2);
    expect(sample(page, 'db_pool_max_connections')).toBe(2);
    expect(sample(page, 'db_pool_connections', 'state="busy"')).toBe(0);
    expect(sample(page, 'db_pool_connections', 'state="idle"')).toBe(2);
    expect(sample(page, 'db_pool_waiting_checkouts')).toBe(0);
  });

  it('leaves /metrics once its DataSource is closed', async () => {
    const url = await createDatabase(servers.databaseUrl as string);
    const other = await openServiceDataSource({
      url,
      schema: 'pooltest_closed',
      entities: [],
      migrations: [],
    });
    watchPoolUse(other, 'pooltest_closed');
    expect(await metrics.render()).toContain('schema="pooltest_closed"');
    await other.destroy();
    expect(await metrics.render()).not.toContain('schema="pooltest_closed"');
  });
});
