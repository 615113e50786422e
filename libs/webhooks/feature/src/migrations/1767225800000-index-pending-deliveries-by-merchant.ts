import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'webhooks';

// The dispatcher's claim reads waiting deliveries merchant by merchant, oldest first: this index
// serves both its skip scan over merchants and each merchant's share, so a claim costs what it
// takes, not the size of the backlog.
export class IndexPendingDeliveriesByMerchant1767225800000 implements MigrationInterface {
  name = 'IndexPendingDeliveriesByMerchant1767225800000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(
      `CREATE INDEX "deliveries_pending_by_merchant" ON "${S}"."deliveries" ("merchant_id", "next_attempt_at", "id")
       WHERE "status" = 'PENDING'`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "${S}"."deliveries_pending_by_merchant"`);
  }
}
