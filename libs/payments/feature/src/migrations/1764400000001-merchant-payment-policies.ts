import { MigrationInterface, QueryRunner } from 'typeorm';

// A merchant's own payment rules (operator-set). A merchant without a row has the defaults; a null
// payer_name_policy follows the mode's default (HOLD in production, WARN in sandbox).
export class MerchantPaymentPolicies1764400000001 implements MigrationInterface {
  name = 'MerchantPaymentPolicies1764400000001';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "payments"."merchant_payment_policies" (
        "merchant_id" UUID PRIMARY KEY,
        "amount_policy" TEXT NOT NULL CHECK ("amount_policy" IN ('FLEXIBLE', 'EXACT')),
        "payer_name_policy" TEXT CHECK ("payer_name_policy" IN ('OFF', 'WARN', 'HOLD')),
        "updated_by" TEXT NOT NULL,
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "payments"."merchant_payment_policies"`);
  }
}
