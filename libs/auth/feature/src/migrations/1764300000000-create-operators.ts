import { MigrationInterface, QueryRunner } from 'typeorm';

// Named operators of the admin API. Only the SHA-256 of a key is kept (keys are 32 random bytes,
// so a fast hash leaves nothing to brute-force). A revoked operator keeps its row, so its id is
// never given to someone else and the audit log's operator ids stay unambiguous.
export class CreateOperators1764300000000 implements MigrationInterface {
  name = 'CreateOperators1764300000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "auth"."operators" (
        "id" TEXT PRIMARY KEY,
        "scopes" TEXT[] NOT NULL,
        "key_sha256" BYTEA NOT NULL UNIQUE CHECK (octet_length("key_sha256") = 32),
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "created_by" TEXT NOT NULL,
        "revoked_at" TIMESTAMPTZ,
        "revoked_by" TEXT,
        CHECK (("revoked_at" IS NULL) = ("revoked_by" IS NULL))
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "auth"."operators"`);
  }
}
