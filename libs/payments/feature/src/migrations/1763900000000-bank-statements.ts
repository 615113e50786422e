import { MigrationInterface, QueryRunner } from 'typeorm';

// Credits from bank statements: they arrive on a collection account, not from a merchant, and
// find their merchant through the order they pay. A bank's account servicer reference names a
// booking once per account: the unique index makes a replayed file book nothing twice.
export class BankStatements1763900000000 implements MigrationInterface {
  name = 'BankStatements1763900000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."bank_transactions" ALTER COLUMN "merchant_id" DROP NOT NULL`);
    await qr.query(`
      ALTER TABLE "payments"."bank_transactions"
        ADD COLUMN "source" TEXT NOT NULL DEFAULT 'SANDBOX' CHECK ("source" IN ('SANDBOX', 'STATEMENT')),
        ADD COLUMN "account_iban" TEXT,
        ADD COLUMN "account_servicer_ref" TEXT,
        ADD COLUMN "statement_message_id" TEXT,
        ADD COLUMN "suspense_reason" TEXT`);
    await qr.query(
      `CREATE UNIQUE INDEX "bank_transactions_booking_once" ON "payments"."bank_transactions" ("account_iban", "account_servicer_ref")
       WHERE "account_servicer_ref" IS NOT NULL`,
    );
    await qr.query(
      `CREATE INDEX "bank_transactions_suspense" ON "payments"."bank_transactions" ("created_at")
       WHERE "suspense_reason" IS NOT NULL`,
    );
    await qr.query(`
      CREATE TABLE "payments"."bank_statements" (
        "message_id" TEXT PRIMARY KEY,
        "kind" TEXT NOT NULL,
        "version" TEXT NOT NULL,
        "entries" INTEGER NOT NULL,
        "credits_booked" INTEGER NOT NULL,
        "credits_matched" INTEGER NOT NULL,
        "duplicates" INTEGER NOT NULL,
        "received_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "payments"."bank_statements"`);
    await qr.query(`DROP INDEX "payments"."bank_transactions_suspense"`);
    await qr.query(`DROP INDEX "payments"."bank_transactions_booking_once"`);
    await qr.query(`
      ALTER TABLE "payments"."bank_transactions"
        DROP COLUMN "source", DROP COLUMN "account_iban", DROP COLUMN "account_servicer_ref",
        DROP COLUMN "statement_message_id", DROP COLUMN "suspense_reason"`);
    await qr.query(`ALTER TABLE "payments"."bank_transactions" ALTER COLUMN "merchant_id" SET NOT NULL`);
  }
}
