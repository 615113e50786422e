import { MigrationInterface, QueryRunner } from 'typeorm';

// The payer name policy compares a credit's payer with the order's KYC user: the user's name comes
// from kyc.user.registered (a projection, never a call to the KYC service), the order's user from
// order.created, and each credit records what the comparison found.
export class PayerNames1764400000000 implements MigrationInterface {
  name = 'PayerNames1764400000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "payments"."kyc_holders" (
        "user_uuid" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "holder_name" TEXT NOT NULL,
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(`ALTER TABLE "payments"."open_references" ADD COLUMN "kyc_user_uuid" UUID`);
    await qr.query(
      `ALTER TABLE "payments"."bank_transactions" ADD COLUMN "payer_name_check" TEXT
       CHECK ("payer_name_check" IN ('MATCH', 'MISMATCH', 'UNKNOWN'))`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."bank_transactions" DROP COLUMN "payer_name_check"`);
    await qr.query(`ALTER TABLE "payments"."open_references" DROP COLUMN "kyc_user_uuid"`);
    await qr.query(`DROP TABLE "payments"."kyc_holders"`);
  }
}
