import type { MigrationInterface, QueryRunner } from 'typeorm';

import { DatabaseService, loadServiceDatabase } from './service-databases';

// Migrations already ran on deployed databases, which track them by name only: the ones now built by
// addColumnMigration must still run, to the byte, the statements their files spelt out before.
const BEFORE: Array<[DatabaseService, string, string, string]> = [
  [
    'auth',
    'AddMerchantTokenVersion1764000000000',
    `ALTER TABLE "auth"."merchants" ADD COLUMN "token_version" INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE "auth"."merchants" DROP COLUMN "token_version"`,
  ],
  [
    'orders',
    'KycStatusVersion1763900000000',
    `ALTER TABLE "orders"."kyc_users" ADD COLUMN "status_version" INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE "orders"."kyc_users" DROP COLUMN "status_version"`,
  ],
  [
    'orders',
    'OrderBeneficiaryName1764200000000',
    `ALTER TABLE "orders"."orders" ADD COLUMN "beneficiary_name" TEXT`,
    `ALTER TABLE "orders"."orders" DROP COLUMN "beneficiary_name"`,
  ],
  [
    'payment-ingest',
    'PayoutStopped1764600000000',
    `ALTER TABLE "payments"."bank_transactions" ADD COLUMN "payout_stopped_at" TIMESTAMPTZ`,
    `ALTER TABLE "payments"."bank_transactions" DROP COLUMN "payout_stopped_at"`,
  ],
  [
    'chain-settlement',
    'SettlementTraceparent1763800300000',
    `ALTER TABLE "settlement"."settlements" ADD COLUMN "traceparent" TEXT`,
    `ALTER TABLE "settlement"."settlements" DROP COLUMN "traceparent"`,
  ],
];

async function statements(run: (qr: QueryRunner) => Promise<void>): Promise<string[]> {
  const sql: string[] = [];
  await run({ query: async (text: string) => void sql.push(text) } as unknown as QueryRunner);
  return sql;
}

describe.each(BEFORE)('%s migration %s', (service, name, up, down) => {
  const migrationClass = (
    loadServiceDatabase(service).migrations as Array<new () => MigrationInterface>
  ).find((m) => new m().name === name);

  it('is still listed under its name, which the migrations table records', () => {
    expect(migrationClass).toBeDefined();
  });

  it('runs the same SQL as before, up and down', async () => {
    const migration = new migrationClass!();
    expect(await statements((qr) => migration.up(qr))).toEqual([up]);
    expect(await statements((qr) => migration.down(qr))).toEqual([down]);
  });
});
