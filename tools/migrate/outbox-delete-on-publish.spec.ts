import type { MigrationInterface, QueryRunner } from 'typeorm';

import { DatabaseService, loadServiceDatabase } from './service-databases';

// Every service with an outbox turns it into a queue (the relay deletes what it published), in a
// migration of its own after the ones that created it; the SQL is pinned here, as deployed databases
// will know the migration by name only.
const OUTBOXES: Array<[DatabaseService, string, string]> = [
  ['kyc', 'kyc', 'OutboxDeleteOnPublish1764810000000'],
  ['orders', 'orders', 'OutboxDeleteOnPublish1764810000000'],
  ['payment-ingest', 'payments', 'OutboxDeleteOnPublish1764810000000'],
  ['chain-settlement', 'settlement', 'OutboxDeleteOnPublish1764810000000'],
  ['webhook-dispatch', 'webhooks', 'OutboxDeleteOnPublish1767225900000'],
];

async function statements(run: (qr: QueryRunner) => Promise<void>): Promise<string[]> {
  const sql: string[] = [];
  await run({ query: async (text: string) => void sql.push(text) } as unknown as QueryRunner);
  return sql;
}

describe.each(OUTBOXES)('%s outbox (%s) as a queue', (service, schema, name) => {
  const migrations = loadServiceDatabase(service).migrations as Array<new () => MigrationInterface>;
  const index = migrations.findIndex((m) => new m().name === name);

  it('is listed after the first migration, which created the outbox', () => {
    expect(index).toBeGreaterThan(0);
  });

  it('deletes the published rows, then drops the partial index and published_at; down puts them back', async () => {
    const migration = new migrations[index]();
    expect(await statements((qr) => migration.up(qr))).toEqual([
      `DELETE FROM "${schema}"."outbox" WHERE "published_at" IS NOT NULL`,
      `DROP INDEX "${schema}"."outbox_unpublished"`,
      `ALTER TABLE "${schema}"."outbox" DROP COLUMN "published_at"`,
    ]);
    expect(await statements((qr) => migration.down(qr))).toEqual([
      `ALTER TABLE "${schema}"."outbox" ADD COLUMN "published_at" TIMESTAMPTZ`,
      `CREATE INDEX "outbox_unpublished" ON "${schema}"."outbox" ("seq") WHERE "published_at" IS NULL`,
    ]);
  });
});

it('auth has no outbox, so no such migration', () => {
  const names = (loadServiceDatabase('auth').migrations as Array<new () => MigrationInterface>).map(
    (m) => new m().name,
  );
  expect(names.filter((n) => n?.startsWith('OutboxDeleteOnPublish'))).toEqual([]);
});
