import { MigrationInterface, QueryRunner } from 'typeorm';

// Merchants with argon2id secret hashes, and the ES256 keys that sign access tokens (private halves
// sealed with AUTH_KEY_ENCRYPTION_KEY). Auth produces no events, so no outbox/inbox tables.
export class CreateAuthTables1763770000000 implements MigrationInterface {
  name = 'CreateAuthTables1763770000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "auth"."merchants" (
        "id" UUID PRIMARY KEY,
        "name" TEXT NOT NULL,
        "secret_hash" TEXT NOT NULL,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(
      `CREATE INDEX "merchants_newest_first" ON "auth"."merchants" ("created_at" DESC, "id" DESC)`,
    );
    await qr.query(`
      CREATE TABLE "auth"."signing_keys" (
        "kid" TEXT PRIMARY KEY,
        "private_key_enc" TEXT NOT NULL,
        "public_jwk" JSONB NOT NULL,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "active" BOOLEAN NOT NULL DEFAULT true,
        "retired_at" TIMESTAMPTZ,
        CONSTRAINT "signing_keys_retired_iff_inactive" CHECK ("active" = ("retired_at" IS NULL))
      )`);
    // At most one active key, whatever two booting instances do.
    await qr.query(
      `CREATE UNIQUE INDEX "signing_keys_one_active" ON "auth"."signing_keys" ("active") WHERE "active"`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "auth"."signing_keys"`);
    await qr.query(`DROP TABLE "auth"."merchants"`);
  }
}
