import type { MigrationInterface, QueryRunner } from 'typeorm';

import { DatabaseService, loadServiceDatabase } from './service-databases';

// The tables each service uses as a queue are vacuumed by a count of dead rows, in a migration of
// its own after the ones that created them; the SQL is pinned here, as deployed databases will know
// the migration by name only.
const QUEUES: Array<[DatabaseService, string, string, string[]]> = [
  ['kyc', 'kyc', 'QueueTablesAutovacuum1765000000000', ['outbox']],
  ['orders', 'orders', 'QueueTablesAutovacuum1765000000000', ['outbox']],
  ['payment-ingest', 'payments', 'QueueTablesAutovacuum1765000000000', ['outbox', 'open_references']],
  [
    'chain-settlement',
    'settlement',
    'QueueTablesAutovacuum1765000000000',
    ['outbox', 'settlements', 'settlement_transactions'],
  ],
  ['webhook-dispatch', 'webhooks', 'QueueTablesAutovacuum1767226000000', ['outbox', 'deliveries']],
];

async function statements(run: (qr: QueryRunner) => Promise<void>): Promise<string[]> {
  const sql: string[] = [];
  await run({ query: async (text: string) => void sql.push(text) } as unknown as QueryRunner);
  return sql;
}

describe.each(QUEUES)('%s queue tables (%s)', (service, schema, name, tables) => {
  const migrations = loadServiceDatabase(service).migrations as Array<new () => MigrationInterface>;
  const index = migrations.findIndex((m) => new m().name === name);

  it('is listed after the outbox became a queue', () => {
    const outbox = migrations.findIndex((m) => new m().name?.startsWith('OutboxDeleteOnPublish'));
    expect(outbox).toBeGreaterThan(0);
    expect(index).toBeGreaterThan(outbox);
  });

  it('sets autovacuum by 1,000 dead rows with no share of the table; down resets both', async () => {
    const migration = new migrations[index]();
    expect(await statements((qr) => migration.up(qr))).toEqual(
      tables.map(
        (t) =>
          `ALTER TABLE "${schema}"."${t}" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`,
      ),
    );
    expect(await statements((qr) => migration.down(qr))).toEqual(
      tables.map(
        (t) =>
          `ALTER TABLE "${schema}"."${t}" RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold)`,
      ),
    );
  });
});
