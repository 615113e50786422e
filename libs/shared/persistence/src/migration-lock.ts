import { Client } from 'pg';

// One Postgres advisory lock for every schema change of every service: concurrent `migrate` runs and
// apps migrating at boot queue behind each other instead of racing on CREATE SCHEMA / CREATE TABLE
// (the race ends in "duplicate key ... pg_type_typname_nsp_index"). A fixed key, not hashtext(), so
// it never changes with the Postgres version. Session-level: a crashed holder releases it on disconnect.
export const MIGRATION_LOCK_KEY = '4702111234474983745'; // bigint, "AdvLock" spelled loosely; arbitrary

export interface MigrationLockOptions {
  timeoutMs?: number; // give up waiting after this long (default 10 minutes)
  log?: (message: string) => void;
}

export async function withMigrationLock<T>(
  url: string,
  work: () => Promise<T>,
  opts: MigrationLockOptions = {},
): Promise<T> {
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const client = new Client({ connectionString: url, application_name: 'onramp-migrate-lock' });
  await client.connect();
  try {
    const started = Date.now();
    let lastLog = started;
    for (;;) {
      const res = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1::bigint) AS locked',
        [MIGRATION_LOCK_KEY],
      );
      if (res.rows[0]?.locked) break;
      if (Date.now() - started > timeoutMs) {
        throw new Error(
          `another migration has held the migration lock for over ${timeoutMs / 1000} s; giving up`,
        );
      }
      if (Date.now() - lastLog >= 10_000) {
        opts.log?.('waiting for the migration lock (another migration is running)');
        lastLog = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    try {
      return await work();
    } finally {
      await client
        .query('SELECT pg_advisory_unlock($1::bigint)', [MIGRATION_LOCK_KEY])
        .catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
