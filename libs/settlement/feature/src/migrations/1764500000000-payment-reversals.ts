import { MigrationInterface, QueryRunner } from 'typeorm';

// A settlement can end CANCELLED (the bank took the euros back before the transfer was signed: no
// bytes, maybe no price), and every payment.reversed is recorded once per order with what it found.
// A reversal that overtakes its payment.confirmed (another topic) is recorded too, so the
// confirmation that arrives later creates no settlement.
export class PaymentReversals1764500000000 implements MigrationInterface {
  name = 'PaymentReversals1764500000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      ALTER TABLE "settlement"."settlements"
        DROP CONSTRAINT "settlements_state_check",
        ADD CONSTRAINT "settlements_state_check"
          CHECK ("state" IN ('PENDING', 'SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED', 'CANCELLED')),
        DROP CONSTRAINT "settlements_signed_has_tx",
        ADD CONSTRAINT "settlements_signed_has_tx" CHECK (
          "state" IN ('PENDING', 'CANCELLED')
          OR ("raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL AND "nonce" IS NOT NULL AND "signer_address" IS NOT NULL)
        ),
        -- a cancelled settlement was never signed: no nonce, no bytes
        ADD CONSTRAINT "settlements_cancelled_unsigned" CHECK (
          "state" <> 'CANCELLED' OR ("raw_tx" IS NULL AND "nonce" IS NULL)
        ),
        DROP CONSTRAINT "settlements_quoted_before_signing",
        ADD CONSTRAINT "settlements_quoted_before_signing"
          CHECK ("state" IN ('PENDING', 'CANCELLED') OR "token_base_units" IS NOT NULL)`);
    await qr.query(`
      CREATE TABLE "settlement"."payment_reversals" (
        "order_uuid" UUID PRIMARY KEY,
        "bank_transaction_id" UUID NOT NULL,
        "amount" NUMERIC(20,2) NOT NULL,
        "reason" TEXT NOT NULL,
        -- CANCELLED: the PENDING settlement was cancelled; BEFORE_SETTLEMENT: no settlement existed
        -- yet (none will be created); TOO_LATE: the transfer was already signed and goes ahead
        "outcome" TEXT NOT NULL CHECK ("outcome" IN ('CANCELLED', 'BEFORE_SETTLEMENT', 'TOO_LATE')),
        "settlement_state" TEXT,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "settlement"."payment_reversals"`);
    await qr.query(`
      ALTER TABLE "settlement"."settlements"
        DROP CONSTRAINT "settlements_cancelled_unsigned",
        DROP CONSTRAINT "settlements_state_check",
        ADD CONSTRAINT "settlements_state_check"
          CHECK ("state" IN ('PENDING', 'SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED')),
        DROP CONSTRAINT "settlements_signed_has_tx",
        ADD CONSTRAINT "settlements_signed_has_tx" CHECK (
          "state" = 'PENDING'
          OR ("raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL AND "nonce" IS NOT NULL AND "signer_address" IS NOT NULL)
        ),
        DROP CONSTRAINT "settlements_quoted_before_signing",
        ADD CONSTRAINT "settlements_quoted_before_signing" CHECK ("state" = 'PENDING' OR "token_base_units" IS NOT NULL)`);
  }
}
