import { DataSource } from 'typeorm';

import { ensureSchema, serviceDataSourceOptions, ServiceDataSourceOptions } from './data-source';
import { withMigrationLock } from './migration-lock';

export interface MigrateResult {
  schema: string;
  applied: string[];
}

// The `migrate` step for one service: under the migration lock, create its schema and run every
// pending migration, each in its own transaction. Safe to run many times and from many places at once.
export async function migrateService(
  opts: ServiceDataSourceOptions,
  log: (message: string) => void = () => undefined,
): Promise<MigrateResult> {
  return withMigrationLock(
    opts.url,
    async () => {
      await ensureSchema(opts.url, opts.schema);
      const ds = new DataSource({ ...serviceDataSourceOptions({ ...opts, poolSize: 1 }), logging: false });
      await ds.initialize();
      try {
        const applied = await ds.runMigrations({ transaction: 'each' });
        return { schema: opts.schema, applied: applied.map((m) => m.name) };
      } finally {
        await ds.destroy();
      }
    },
    { log },
  );
}

// The migrations this build knows and the database does not have yet (all of them before the first run).
export async function pendingMigrations(ds: DataSource, schema: string): Promise<string[]> {
  const known = ds.migrations.map((m) => m.name ?? m.constructor.name);
  const exists: { t: string | null }[] = await ds.query(`SELECT to_regclass($1) AS t`, [
    `"${schema}"."migrations"`,
  ]);
  if (!exists[0]?.t) return known;
  const rows: { name: string }[] = await ds.query(`SELECT name FROM "${schema}"."migrations"`);
  const done = new Set(rows.map((r) => r.name));
  return known.filter((name) => !done.has(name));
}

export interface SchemaWaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  log: (message: string) => void;
}

// Production boot: the app never changes the schema; it waits (bounded) until the `migrate` step has
// brought it to the version this build needs, so a rollout started before its migration job finishes
// neither races it nor runs on an old schema.
export async function waitForSchema(ds: DataSource, schema: string, opts: SchemaWaitOptions): Promise<void> {
  const started = Date.now();
  let lastLog = 0;
  for (;;) {
    const pending = await pendingMigrations(ds, schema);
    if (pending.length === 0) return;
    const waited = Date.now() - started;
    if (waited > opts.timeoutMs) {
      throw new Error(
        `schema "${schema}" is missing ${pending.length} migration(s) (${pending.join(', ')}) after ` +
          `${Math.round(waited / 1000)} s: run the migrate step for this version (node dist/tools/migrate/main.js), ` +
          `or set DB_MIGRATE_AT_BOOT=true`,
      );
    }
    if (Date.now() - lastLog >= 10_000) {
      opts.log(
        `waiting for the migrate step: schema "${schema}" lacks ${pending.length} migration(s) (${pending.join(', ')})`,
      );
      lastLog = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, opts.intervalMs ?? 1000));
  }
}
