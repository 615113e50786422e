import { MigrationInterface, QueryRunner } from 'typeorm';

// Rotating a merchant's secret bumps its token version; tokens carry the version they were issued
// under (`ver`), and services refuse those below the merchant's current one.
export class AddMerchantTokenVersion1764000000000 implements MigrationInterface {
  name = 'AddMerchantTokenVersion1764000000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "auth"."merchants" ADD COLUMN "token_version" INTEGER NOT NULL DEFAULT 0`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "auth"."merchants" DROP COLUMN "token_version"`);
  }
}
