import { MigrationInterface, QueryRunner } from 'typeorm';

// Erasure of a KYC user's personal data (POST /admin/kyc-users/{uuid}/erase): when and by which
// operator. The row stays (uuid, merchant, status history, timestamps: the AML record of the
// check), its sealed PII is replaced by a sealed tombstone.
export class KycErasure1764600000000 implements MigrationInterface {
  name = 'KycErasure1764600000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(
      `ALTER TABLE "kyc"."kyc_users" ADD COLUMN "erased_at" TIMESTAMPTZ, ADD COLUMN "erased_by" TEXT`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "kyc"."kyc_users" DROP COLUMN "erased_at", DROP COLUMN "erased_by"`);
  }
}
