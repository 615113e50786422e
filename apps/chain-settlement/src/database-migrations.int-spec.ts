import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { migrateService, serviceDataSourceOptions, waitForSchema } from '@onramp/persistence';
import { SERVICE_DATABASE } from '@onramp/settlement-feature';

async function freshDatabase(): Promise<string> {
  const base = process.env['DATABASE_URL']!;
  const name = `migrate_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function appliedNames(url: string): Promise<string[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const res = await c.query<{ name: string }>(
      `SELECT name FROM "${SERVICE_DATABASE.schema}"."migrations" ORDER BY id`,
    );
    return res.rows.map((r) => r.name);
  } finally {
    await c.end();
  }
}

// The migrate step against real Postgres: without the advisory lock, settlement processes started
// together on an empty database failed with "duplicate key ... pg_type_typname_nsp_index".
describe('settlement migrations under the migration lock', () => {
  // The name TypeORM records: the instance's `name`, else the class name (adminAuditMigration's
  // class is anonymous and names its instances).
  const known = (SERVICE_DATABASE.migrations as (new () => { name?: string })[]).map(
    (M) => new M().name ?? M.name,
  );

  it('N concurrent migrations of one service on an empty database all succeed, each migration applied once', async () => {
    const url = await freshDatabase();
    const results = await Promise.all(
      Array.from({ length: 6 }, () => migrateService({ url, ...SERVICE_DATABASE })),
    );
    const applied = results.flatMap((r) => r.applied);
    expect(applied.sort()).toEqual([...known].sort());
    expect(results.filter((r) => r.applied.length > 0)).toHaveLength(1);
    expect(await appliedNames(url)).toEqual(known);
  });

  it('the tables used as queues are vacuumed by a count of dead rows, not a share of the table', async () => {
    const url = await freshDatabase();
    await migrateService({ url, ...SERVICE_DATABASE });
    const c = new Client({ connectionString: url });
    await c.connect();
    try {
      const res = await c.query<{ relname: string; reloptions: string[] | null }>(
        `SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`,
        [SERVICE_DATABASE.schema],
      );
      const tuned = res.rows.filter((r) => r.reloptions !== null);
      expect(tuned.map((r) => r.relname)).toEqual(['outbox', 'settlement_transactions', 'settlements']);
      for (const r of tuned) {
        expect(r.reloptions).toEqual([
          'autovacuum_vacuum_scale_factor=0',
          'autovacuum_vacuum_threshold=1000',
        ]);
      }
    } finally {
      await c.end();
    }
  });

  it('a production app waits (bounded) for its schema version, then starts once migrate has run', async () => {
    const url = await freshDatabase();
    const ds = await new DataSource(serviceDataSourceOptions({ url, ...SERVICE_DATABASE })).initialize();
    try {
      const logs: string[] = [];
      const all = SERVICE_DATABASE.migrations?.length ?? 0;
      await expect(
        waitForSchema(ds, SERVICE_DATABASE.schema, {
          timeoutMs: 300,
          intervalMs: 100,
          log: (m) => logs.push(m),
        }),
      ).rejects.toThrow(
        new RegExp(`schema "settlement" is missing ${all} migration\\(s\\).*run the migrate step`),
      );
      expect(logs[0]).toMatch(`waiting for the migrate step: schema "settlement" lacks ${all} migration`);

      const waiting = waitForSchema(ds, SERVICE_DATABASE.schema, {
        timeoutMs: 60_000,
        intervalMs: 100,
        log: () => undefined,
      });
      await migrateService({ url, ...SERVICE_DATABASE });
      await expect(waiting).resolves.toBeUndefined();
    } finally {
      await ds.destroy();
    }
  });
});
