import { MigrationInterface, QueryRunner } from 'typeorm';

// kyc.user.registered and kyc.user.status-changed travel on different topics: the projection
// keeps the status with the highest version, whichever arrives last.
export class KycStatusVersion1763900000000 implements MigrationInterface {
  name = 'KycStatusVersion1763900000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "orders"."kyc_users" ADD COLUMN "status_version" INTEGER NOT NULL DEFAULT 0`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "orders"."kyc_users" DROP COLUMN "status_version"`);
  }
}
