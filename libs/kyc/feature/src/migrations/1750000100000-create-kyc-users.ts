import { MigrationInterface, QueryRunner } from 'typeorm';

import {
  createIdempotencyTable,
  createMessagingTables,
  dropIdempotencyTable,
  dropMessagingTables,
} from '@onramp/persistence';

// Identity data (PII) lives only in "pii", sealed with AES-256-GCM; what stays in clear is what the
// service must query or index: owner, merchant's own id, screening outcome, timestamps.
export class CreateKycUsers1750000100000 implements MigrationInterface {
  name = 'CreateKycUsers1750000100000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "kyc"."kyc_users" (
        "uuid" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "external_id" TEXT,
        "status" TEXT NOT NULL CHECK ("status" IN ('APPROVED', 'PENDING_REVIEW', 'REJECTED')),
        "status_reason" TEXT,
        "pii" TEXT NOT NULL,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(`
      CREATE UNIQUE INDEX "kyc_users_merchant_external_id_key" ON "kyc"."kyc_users" ("merchant_id", "external_id")
      WHERE "external_id" IS NOT NULL`);
    await qr.query(
      `CREATE INDEX "kyc_users_merchant_newest" ON "kyc"."kyc_users" ("merchant_id", "created_at" DESC, "uuid" DESC)`,
    );
    await createMessagingTables(qr, 'kyc');
    await createIdempotencyTable(qr, 'kyc');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropIdempotencyTable(qr, 'kyc');
    await dropMessagingTables(qr, 'kyc');
    await qr.query(`DROP TABLE "kyc"."kyc_users"`);
  }
}
