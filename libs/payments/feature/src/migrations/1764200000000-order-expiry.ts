import { MigrationInterface, QueryRunner } from 'typeorm';

// An order unpaid past ORDER_TTL expires: its reference becomes EXPIRED (it takes no more money; a
// late credit waits in suspense). The partial index keeps the expiry sweep cheap.
export class OrderExpiry1764200000000 implements MigrationInterface {
  name = 'OrderExpiry1764200000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."open_references" DROP CONSTRAINT "open_references_status_check"`);
    await qr.query(
      `ALTER TABLE "payments"."open_references" ADD CONSTRAINT "open_references_status_check"
       CHECK ("status" IN ('OPEN', 'MATCHED', 'CLOSED', 'EXPIRED'))`,
    );
    await qr.query(
      `CREATE INDEX "open_references_open_oldest" ON "payments"."open_references" ("created_at") WHERE "status" = 'OPEN'`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "payments"."open_references_open_oldest"`);
    await qr.query(`UPDATE "payments"."open_references" SET "status" = 'CLOSED' WHERE "status" = 'EXPIRED'`);
    await qr.query(`ALTER TABLE "payments"."open_references" DROP CONSTRAINT "open_references_status_check"`);
    await qr.query(
      `ALTER TABLE "payments"."open_references" ADD CONSTRAINT "open_references_status_check"
       CHECK ("status" IN ('OPEN', 'MATCHED', 'CLOSED'))`,
    );
  }
}
