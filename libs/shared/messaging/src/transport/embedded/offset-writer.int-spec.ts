import { Pool } from 'pg';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { ensureEventbusSchema } from './eventbus-schema';
import { OffsetWriter } from './offset-writer';

// Real Postgres: what several groups and partitions handled is written in one statement per interval,
// never moves an offset back, and is written at once by a flush.
describe('OffsetWriter (integration, real Postgres)', () => {
  let pool: Pool;
  const writers: OffsetWriter[] = [];

  beforeAll(async () => {
    pool = new Pool({
      connectionString: await createDatabase(loadInfraConfig().databaseUrl as string),
      max: 2,
    });
    await ensureEventbusSchema(pool, { partitions: 4, retentionHours: 24 });
  });

  afterAll(async () => {
    for (const w of writers) w.stop();
    await pool?.end();
  });

  const offsets = async (): Promise<string[]> =>
    (
      await pool.query<{ o: string }>(
        `SELECT group_id || ' ' || topic || '@' || partition || '=' || seq AS o FROM eventbus.offsets ORDER BY 1`,
      )
    ).rows.map((r) => r.o);

  const writer = (intervalMs: number): { w: OffsetWriter; statements: () => number } => {
    const w = new OffsetWriter(pool, intervalMs);
    writers.push(w);
    const query = jest.spyOn(pool, 'query');
    query.mockClear();
    return { w, statements: () => query.mock.calls.length };
  };

  beforeEach(async () => {
    await pool.query('DELETE FROM eventbus.offsets');
  });

  it('writes every group and partition handled within the interval in one statement', async () => {
    const { w, statements } = writer(150);
    await w.handled('a', ['t1', 't2'], 0, 5n);
    await w.handled('a', ['t1', 't2'], 0, 7n);
    await w.handled('a', ['t1', 't2'], 3, 2n);
    await w.handled('b', ['t1'], 0, 9n);
    expect(statements()).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(statements()).toBe(1);
    expect(await offsets()).toEqual(['a t1@0=7', 'a t1@3=2', 'a t2@0=7', 'a t2@3=2', 'b t1@0=9']);
  });

  it('never moves an offset back, and a flush writes at once', async () => {
    const { w } = writer(60_000);
    await w.handled('a', ['t1'], 1, 10n);
    await w.flush();
    await w.handled('a', ['t1'], 1, 4n); // an old value, late
    await w.flush();
    expect(await offsets()).toEqual(['a t1@1=10']);
  });

  it('writes at once, and says when done, with an interval of 0', async () => {
    const { w } = writer(0);
    await w.handled('c', ['t1'], 2, 3n);
    expect(await offsets()).toEqual(['c t1@2=3']);
  });
});
