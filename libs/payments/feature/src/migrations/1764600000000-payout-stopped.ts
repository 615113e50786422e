import { MigrationInterface, QueryRunner } from 'typeorm';

// A credit the bank took back after it had paid an order, whose payout settlement then stopped (the
// order FAILED, nothing was sent): set when order.failed arrives for it, so the operator's list of
// reversed credits tells a stopped payout from one that went ahead unfunded.
export class PayoutStopped1764600000000 implements MigrationInterface {
  name = 'PayoutStopped1764600000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."bank_transactions" ADD COLUMN "payout_stopped_at" TIMESTAMPTZ`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."bank_transactions" DROP COLUMN "payout_stopped_at"`);
  }
}
