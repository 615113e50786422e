import { MigrationInterface, QueryRunner } from 'typeorm';

// Operator (later: KYC provider) decisions. The user row keeps the current status and a version
// counting its changes; every decision is kept, with who took it and when.
export class KycDecisions1763900000000 implements MigrationInterface {
  name = 'KycDecisions1763900000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "kyc"."kyc_users" ADD COLUMN "status_version" INTEGER NOT NULL DEFAULT 0`);
    await qr.query(`
      CREATE TABLE "kyc"."kyc_decisions" (
        "id" UUID PRIMARY KEY,
        "user_uuid" UUID NOT NULL REFERENCES "kyc"."kyc_users" ("uuid"),
        "previous_status" TEXT NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('APPROVED', 'REJECTED')),
        "status_version" INTEGER NOT NULL,
        "reason" TEXT NOT NULL,
        "decided_by" TEXT NOT NULL,
        "decided_at" TIMESTAMPTZ NOT NULL,
        UNIQUE ("user_uuid", "status_version")
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "kyc"."kyc_decisions"`);
    await qr.query(`ALTER TABLE "kyc"."kyc_users" DROP COLUMN "status_version"`);
  }
}
