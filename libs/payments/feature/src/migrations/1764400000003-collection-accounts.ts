import { MigrationInterface, QueryRunner } from 'typeorm';

// The platform's receiving accounts (one or many): a statement books credits only on one of them,
// and a return leaves from the account its credit arrived on. Kept from configuration at boot.
export class CollectionAccounts1764400000003 implements MigrationInterface {
  name = 'CollectionAccounts1764400000003';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "payments"."collection_accounts" (
        "iban" TEXT PRIMARY KEY,
        "bic" TEXT,
        "holder_name" TEXT NOT NULL,
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "payments"."collection_accounts"`);
  }
}
