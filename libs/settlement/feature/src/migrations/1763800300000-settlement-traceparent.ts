import { MigrationInterface, QueryRunner } from 'typeorm';

// The trace of the payment.confirmed that created a settlement: the worker, which runs outside any
// request or event, continues it when it publishes transfer.*, so one order stays one trace.
export class SettlementTraceparent1763800300000 implements MigrationInterface {
  name = 'SettlementTraceparent1763800300000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "settlement"."settlements" ADD COLUMN "traceparent" TEXT`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "settlement"."settlements" DROP COLUMN "traceparent"`);
  }
}
