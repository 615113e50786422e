import { Client } from 'pg';
import { DataSource, DataSourceOptions, MixedList, EntitySchema } from 'typeorm';

import { beginTransactionsWithFirstStatement } from './begin-with-first-statement';
import { withMigrationLock } from './migration-lock';
import { PreparingClient } from './prepared-statements';

export interface ServiceDataSourceOptions {
  url: string;
  schema: string; // each service owns exactly one schema
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
  // Repeated statements prepared once per connection (prepared-statements.ts); on unless false.
  preparedStatements?: boolean;
}

export function serviceDataSourceOptions(opts: ServiceDataSourceOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: opts.url,
    schema: opts.schema,
    entities: opts.entities,
    migrations: opts.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false, // schemas change only through migrations
    // Not 'error': TypeORM would print failing queries with their parameters (PII, secrets).
    logging: ['migration'],
    extra: {
      max: opts.poolSize ?? 10,
      application_name: `onramp-${opts.schema}`,
      ...(opts.preparedStatements === false ? {} : { Client: PreparingClient }),
    },
  };
}

// The schema must exist before TypeORM can put its migrations table into it.
export async function ensureSchema(url: string, schema: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (err) {
    // Two services booting at once can race on CREATE SCHEMA; the loser sees a unique violation.
    if ((err as { code?: string }).code !== '23505') throw err;
  } finally {
    await client.end();
  }
}

export async function openServiceDataSource(opts: ServiceDataSourceOptions): Promise<DataSource> {
  return withMigrationLock(opts.url, async () => {
    await ensureSchema(opts.url, opts.schema);
    const ds = new DataSource(serviceDataSourceOptions(opts));
    await ds.initialize();
    beginTransactionsWithFirstStatement(ds);
    await ds.runMigrations({ transaction: 'each' });
    return ds;
  });
}
