import { MigrationInterface, QueryRunner } from 'typeorm';

// A booked credit the bank took back (a camt reversal: DBIT with RvslInd, often a recall with a
// return reason such as FR01 or AC04). The credit keeps its row and says when and why.
export class CreditReversals1764400000002 implements MigrationInterface {
  name = 'CreditReversals1764400000002';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      ALTER TABLE "payments"."bank_transactions"
        ADD COLUMN "reversed_at" TIMESTAMPTZ,
        ADD COLUMN "reversal_ref" TEXT,
        ADD COLUMN "reversal_reason" TEXT`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`
      ALTER TABLE "payments"."bank_transactions"
        DROP COLUMN "reversed_at", DROP COLUMN "reversal_ref", DROP COLUMN "reversal_reason"`);
  }
}
