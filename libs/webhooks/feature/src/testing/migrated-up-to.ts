import { DataSource } from 'typeorm';

import { ensureSchema, serviceDataSourceOptions } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { WEBHOOKS_SCHEMA } from '../config';
import { SERVICE_DATABASE } from '../database';

// For the migration specs: a fresh database of the run's Postgres with the webhooks schema brought up
// to and including the migration `name`, on a DataSource that knows no later one, so that
// `undoLastMigration` undoes that one and `runMigrations` redoes it.
export async function migratedUpTo(name: string): Promise<DataSource> {
  const all = SERVICE_DATABASE.migrations as Array<new () => { name?: string }>;
  const index = all.findIndex((m) => new m().name === name);
  if (index < 1) throw new Error(`migration ${name} is not among the webhooks migrations after the first`);
  const url = await createDatabase(loadInfraConfig().databaseUrl as string);
  await ensureSchema(url, WEBHOOKS_SCHEMA);
  const ds = new DataSource(
    serviceDataSourceOptions({
      url,
      schema: WEBHOOKS_SCHEMA,
      entities: [],
      migrations: all.slice(0, index + 1),
    }),
  );
  await ds.initialize();
  await ds.runMigrations();
  return ds;
}
