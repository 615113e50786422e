import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'webhooks';

// The attempt log's foreign key checked every logged attempt against its delivery: a lookup and a
// row lock in a trigger per attempt, 8-10 us of Postgres each, about a tenth of what recording a
// result costs it (docs/performance-journal.md, 2026-12-02 morning). It guarded nothing the writers
// do not: an attempt is only ever logged by the statement that records a claim of an existing
// delivery, and no delivery is ever deleted (its ON DELETE CASCADE never fired). Whatever deletes
// deliveries one day (a retention job) deletes their attempts in the same transaction.
export class AttemptLogWithoutForeignKey1767226400000 implements MigrationInterface {
  name = 'AttemptLogWithoutForeignKey1767226400000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(
      `ALTER TABLE "${S}"."delivery_attempts" DROP CONSTRAINT IF EXISTS "delivery_attempts_delivery_id_fkey"`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(
      `ALTER TABLE "${S}"."delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_fkey"
       FOREIGN KEY ("delivery_id") REFERENCES "${S}"."deliveries" ("id") ON DELETE CASCADE`,
    );
  }
}
