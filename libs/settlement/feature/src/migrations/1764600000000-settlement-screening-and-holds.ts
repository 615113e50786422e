import { MigrationInterface, QueryRunner } from 'typeorm';

// Two more ways a settlement stops short of signing: FAILED with nothing signed (the recipient was
// refused by screening: USDC blacklist or the sanctioned list), and HELD (over a payout cap, no
// nonce taken). signed_at dates each payout for the rolling 24 h cap; released_by names the
// operator who let a held settlement pass its caps.
export class SettlementScreeningAndHolds1764600000000 implements MigrationInterface {
  name = 'SettlementScreeningAndHolds1764600000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      ALTER TABLE "settlement"."settlements"
        DROP CONSTRAINT "settlements_state_check",
        ADD CONSTRAINT "settlements_state_check"
          CHECK ("state" IN ('PENDING', 'HELD', 'SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED', 'CANCELLED')),
        DROP CONSTRAINT "settlements_signed_has_tx",
        ADD CONSTRAINT "settlements_signed_has_tx" CHECK (
          "state" IN ('PENDING', 'HELD', 'CANCELLED')
          OR ("state" = 'FAILED' AND "nonce" IS NULL AND "raw_tx" IS NULL AND "tx_hash" IS NULL)
          OR ("raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL AND "nonce" IS NOT NULL AND "signer_address" IS NOT NULL)
        ),
        ADD COLUMN "signed_at" TIMESTAMPTZ,
        ADD COLUMN "released_by" TEXT`);
    // The rolling 24 h sum per signer reads only recent payouts.
    await qr.query(
      `CREATE INDEX "settlements_signed_at" ON "settlement"."settlements" ("signer_address", "signed_at")
       WHERE "signed_at" IS NOT NULL`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "settlement"."settlements_signed_at"`);
    await qr.query(`
      ALTER TABLE "settlement"."settlements"
        DROP COLUMN "released_by",
        DROP COLUMN "signed_at",
        DROP CONSTRAINT "settlements_state_check",
        ADD CONSTRAINT "settlements_state_check"
          CHECK ("state" IN ('PENDING', 'SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED', 'CANCELLED')),
        DROP CONSTRAINT "settlements_signed_has_tx",
        ADD CONSTRAINT "settlements_signed_has_tx" CHECK (
          "state" IN ('PENDING', 'CANCELLED')
          OR ("raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL AND "nonce" IS NOT NULL AND "signer_address" IS NOT NULL)
        )`);
  }
}
