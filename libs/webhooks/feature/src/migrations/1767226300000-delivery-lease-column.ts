import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'webhooks';

// A claim's lease gets a column of its own. The claim used to push next_attempt_at forward as the
// lease, and next_attempt_at is a key of deliveries_pending_by_merchant, so every claim was a full
// update: a new entry in each of the table's four indexes. lease_until is in no index, so a claim
// that finds room on its row's page is a HOT update (no index entry, less WAL); fillfactor 70 keeps
// that room on the pages an insert fills. A claimable delivery is now one due (next_attempt_at) and
// not leased (lease_until NULL or past); every statement that sets next_attempt_at clears the lease.
// Rows leased the old way keep a next_attempt_at in the future and become due when it passes, as
// before. During a rolling upgrade a dispatcher of the old version does not see the new column and
// may send a delivery that a new one has in flight: a duplicate, which at-least-once delivery allows.
export class DeliveryLeaseColumn1767226300000 implements MigrationInterface {
  name = 'DeliveryLeaseColumn1767226300000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "${S}"."deliveries" ADD COLUMN "lease_until" timestamptz`);
    await qr.query(`ALTER TABLE "${S}"."deliveries" SET (fillfactor = 70)`);
  }

  async down(qr: QueryRunner): Promise<void> {
    // The old code reads a lease from next_attempt_at.
    await qr.query(
      `UPDATE "${S}"."deliveries" SET next_attempt_at = GREATEST(next_attempt_at, lease_until)
       WHERE lease_until IS NOT NULL`,
    );
    await qr.query(`ALTER TABLE "${S}"."deliveries" RESET (fillfactor)`);
    await qr.query(`ALTER TABLE "${S}"."deliveries" DROP COLUMN "lease_until"`);
  }
}
