import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { createMessagingTables, openServiceDataSource, outboxKeyHashSql } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

// For the messaging integration specs: a fresh database of the run's Postgres with a service schema's
// messaging tables (outbox with its key hash, inbox) and whatever tables the spec adds (`extraSql`,
// after them).
export async function openMessagingTestDatabase(
  schema: string,
  extraSql: readonly string[] = [],
): Promise<{ url: string; ds: DataSource }> {
  class InitMessagingTest1700000000000 implements MigrationInterface {
    name = 'InitMessagingTest1700000000000';
    async up(qr: QueryRunner): Promise<void> {
      await createMessagingTables(qr, schema);
      for (const sql of [...outboxKeyHashSql(schema).up, ...extraSql]) await qr.query(sql);
    }
    async down(qr: QueryRunner): Promise<void> {
      await qr.query(`DROP SCHEMA "${schema}" CASCADE`);
    }
  }
  const url = await createDatabase(loadInfraConfig().databaseUrl as string);
  const ds = await openServiceDataSource({
    url,
    schema,
    entities: [],
    migrations: [InitMessagingTest1700000000000],
  });
  return { url, ds };
}
