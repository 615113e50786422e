import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'webhooks';

// deliveries_due (next_attempt_at, of PENDING rows) served the first claim, which ranked every due
// delivery; since claims read deliveries_pending_by_merchant, no statement of the service reads it.
// It still took an entry at every insert of a PENDING delivery and at every claim (the claim moves
// next_attempt_at, so its update is never HOT): work on the hottest path for an index nobody used.
export class DropDeliveriesDueIndex1767226100000 implements MigrationInterface {
  name = 'DropDeliveriesDueIndex1767226100000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX IF EXISTS "${S}"."deliveries_due"`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(
      `CREATE INDEX "deliveries_due" ON "${S}"."deliveries" ("next_attempt_at") WHERE "status" = 'PENDING'`,
    );
  }
}
