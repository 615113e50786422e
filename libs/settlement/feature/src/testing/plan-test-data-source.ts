import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';

// For the specs that read what a statement reads as the settlements grow (`*-at-scale`): a database
// of its own, migrated, behind one connection (the prepared statements, their plans and the
// statistics a spec reads are that connection's), with autovacuum off on the settlements so their
// statistics stay those of a new deployment until the spec asks for an ANALYZE.
export async function openPlanTestDataSource(): Promise<DataSource> {
  const ds = await openServiceDataSource({
    ...SERVICE_DATABASE,
    url: await createDatabase(loadInfraConfig().databaseUrl as string),
    poolSize: 1,
  });
  await ds.query(`ALTER TABLE settlement.settlements SET (autovacuum_enabled = false)`);
  return ds;
}
