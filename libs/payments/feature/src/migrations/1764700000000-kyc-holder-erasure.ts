import { MigrationInterface, QueryRunner } from 'typeorm';

// kyc.user.erased leaves a tombstone in kyc_holders: no name (NULL), the time of the erasure. The row
// stays so that a kyc.user.registered arriving after it (another topic, no order between them, or a
// replay) cannot store the name again.
export class KycHolderErasure1764700000000 implements MigrationInterface {
  name = 'KycHolderErasure1764700000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."kyc_holders" ALTER COLUMN "holder_name" DROP NOT NULL`);
    await qr.query(`ALTER TABLE "payments"."kyc_holders" ADD COLUMN "erased_at" TIMESTAMPTZ`);
    await qr.query(
      `ALTER TABLE "payments"."kyc_holders" ADD CONSTRAINT "kyc_holders_erased_no_name"
       CHECK ("erased_at" IS NULL OR "holder_name" IS NULL)`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    // an erased name is gone: its tombstone cannot go back under NOT NULL
    await qr.query(`DELETE FROM "payments"."kyc_holders" WHERE "holder_name" IS NULL`);
    await qr.query(`ALTER TABLE "payments"."kyc_holders" DROP CONSTRAINT "kyc_holders_erased_no_name"`);
    await qr.query(`ALTER TABLE "payments"."kyc_holders" DROP COLUMN "erased_at"`);
    await qr.query(`ALTER TABLE "payments"."kyc_holders" ALTER COLUMN "holder_name" SET NOT NULL`);
  }
}
