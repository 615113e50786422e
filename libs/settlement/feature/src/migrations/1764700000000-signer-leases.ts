import { MigrationInterface, QueryRunner } from 'typeorm';

// One lease per hot wallet of the signer pool: which process signs with it (holder), when it last
// said so (heartbeat_at) and until when the lease holds without another heartbeat (expires_at).
// A process takes a signer whose lease is free or expired, so a dead process's signer, with its
// in-flight transactions and its nonce counter (settlement.signers), passes to a live one.
export class SignerLeases1764700000000 implements MigrationInterface {
  name = 'SignerLeases1764700000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "settlement"."signer_leases" (
        "signer_address" TEXT PRIMARY KEY,
        "holder" TEXT NOT NULL,
        "acquired_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "heartbeat_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "expires_at" TIMESTAMPTZ NOT NULL
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "settlement"."signer_leases"`);
  }
}
