import { Client } from 'pg';
import { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { openServiceDataSource } from './data-source';
import { genericPlan, withCustomPlan, withGenericPlan } from './generic-plan';

const SCHEMA = 'generictest';

class InitGenericTest1700000000000 implements MigrationInterface {
  name = 'InitGenericTest1700000000000';
  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`CREATE TABLE "${SCHEMA}"."refs" (reference TEXT PRIMARY KEY, n INT NOT NULL)`);
  }
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
  }
}

// A batch insert over arrays, as the consumers' statements are.
const INSERT = `INSERT INTO "${SCHEMA}"."refs" (reference, n)
  SELECT r, n FROM unnest($1::text[], $2::int[]) AS i(r, n) ON CONFLICT DO NOTHING`;

// On real Postgres: how often the server planned the statement, from its prepared statements.
describe('withGenericPlan (integration, real Postgres)', () => {
  let ds: DataSource;
  let next = 0;
  const servers = loadInfraConfig();

  beforeAll(async () => {
    const url = await createDatabase(servers.databaseUrl as string);
    // Postgres chooses for itself when to plan a prepared statement again; a plain statement like this
    // one goes generic after five calls, the run statements of the services never did (P1's figures in
    // docs/performance-journal.md). This database's sessions plan every call, as Postgres did for those.
    const admin = new Client({ connectionString: url });
    await admin.connect();
    await admin.query(
      `ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET plan_cache_mode = force_custom_plan`,
    );
    await admin.end();
    // one connection: prepared statements are the connection's
    ds = await openServiceDataSource({
      url,
      schema: SCHEMA,
      entities: [],
      migrations: [InitGenericTest1700000000000],
      poolSize: 1,
    });
  });

  afterAll(async () => {
    await ds?.destroy();
  });

  const insertTwo = (manager: EntityManager): Promise<unknown> =>
    manager.query(INSERT, [
      [`r${next++}`, `r${next++}`],
      [1, 2],
    ]);
  const plans = async (): Promise<{ generic: number; custom: number }> => {
    const [row] = await ds.query(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
       WHERE statement = $1`,
      [INSERT],
    );
    return row ?? { generic: 0, custom: 0 };
  };
  const setting = async (manager: EntityManager): Promise<string> =>
    (await manager.query('SHOW plan_cache_mode'))[0].plan_cache_mode;

  it('plans a statement over arrays once, where Postgres planned it at every call', async () => {
    for (let i = 0; i < 8; i++) await ds.transaction((m) => insertTwo(m));
    const before = await plans();
    expect(before.custom).toBe(8); // without it: a plan for every call
    for (let i = 0; i < 8; i++) await ds.transaction((m) => withGenericPlan(m, () => insertTwo(m)));
    const after = await plans();
    expect(after.custom).toBe(8); // none more
    expect(after.generic).toBeGreaterThanOrEqual(8); // the one generic plan, run each time
  });

  it("keeps the setting to that statement: the transaction's next ones and the next transaction plan as before", async () => {
    let inside = '';
    let afterwards = '';
    await ds.transaction(async (m) => {
      await withGenericPlan(m, async () => {
        inside = await setting(m);
      });
      afterwards = await setting(m);
    });
    expect(inside).toBe('force_generic_plan');
    expect(afterwards).toBe('force_custom_plan'); // the session's own
    expect(await ds.transaction((m) => setting(m))).toBe('force_custom_plan');
  });

  it('is undone with a transaction that fails in the statement', async () => {
    await expect(
      ds.transaction((m) => withGenericPlan(m, () => m.query(INSERT, [['x'], ['not a number']]))),
    ).rejects.toThrow();
    expect(await ds.transaction((m) => setting(m))).toBe('force_custom_plan');
  });

  it('runs the statement as it is outside a transaction', async () => {
    expect(await withGenericPlan(ds.manager, () => setting(ds.manager))).toBe('force_custom_plan');
  });

  it('plans a statement that commits alone once too (genericPlan), and the setting ends with it', async () => {
    const before = await plans();
    for (let i = 0; i < 8; i++) await genericPlan(ds.manager).query(INSERT, [[`r${next++}`], [1]]);
    await ds.transaction((m) => genericPlan(m).query(INSERT, [[`r${next++}`], [1]]));
    const after = await plans();
    expect(after.custom).toBe(before.custom);
    expect(after.generic - before.generic).toBe(9);
    expect(await setting(ds.manager)).toBe('force_custom_plan');
    await expect(genericPlan(ds.manager).query(INSERT, [['y'], ['not a number']])).rejects.toThrow();
    expect(await setting(ds.manager)).toBe('force_custom_plan');
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."refs" WHERE reference = 'y'`);
    expect(n).toBe(0);
  });

  it('plans a statement at its call with withCustomPlan, with sequential scans, for that statement alone', async () => {
    const SETTINGS = `SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_seqscan') AS seq`;
    await ds.transaction(async (m) => {
      expect(await withGenericPlan(m, () => m.query(SETTINGS))).toEqual([
        { mode: 'force_generic_plan', seq: 'off' },
      ]);
      expect(await withCustomPlan(m, () => m.query(SETTINGS))).toEqual([
        { mode: 'force_custom_plan', seq: 'on' },
      ]);
      expect(await withGenericPlan(m, () => m.query(SETTINGS))).toEqual([
        { mode: 'force_generic_plan', seq: 'off' },
      ]);
    });
  });

  it('plans with sequential scans off unless asked, for that statement alone, in or outside a transaction', async () => {
    const seqScan = async (manager: EntityManager): Promise<string> =>
      (await manager.query('SHOW enable_seqscan'))[0].enable_seqscan;
    // a statement that reads the settings it runs with, in place of one planned with them
    const SETTINGS = `SELECT current_setting('plan_cache_mode') AS mode, current_setting('enable_seqscan') AS seq`;
    expect(await genericPlan(ds.manager).query(SETTINGS)).toEqual([
      { mode: 'force_generic_plan', seq: 'off' },
    ]);
    expect(await seqScan(ds.manager)).toBe('on');
    let afterwards = '';
    await ds.transaction(async (m) => {
      expect(await genericPlan(m).query(SETTINGS)).toEqual([{ mode: 'force_generic_plan', seq: 'off' }]);
      afterwards = await seqScan(m);
    });
    expect(afterwards).toBe('on');
    expect(await genericPlan(ds.manager, { seqScan: true }).query(SETTINGS)).toEqual([
      { mode: 'force_generic_plan', seq: 'on' },
    ]);
    await ds.transaction(async (m) => {
      expect(await withGenericPlan(m, () => m.query(SETTINGS))).toEqual([
        { mode: 'force_generic_plan', seq: 'off' },
      ]);
      expect(await m.query(SETTINGS)).toEqual([{ mode: 'force_custom_plan', seq: 'on' }]);
    });
  });
});
