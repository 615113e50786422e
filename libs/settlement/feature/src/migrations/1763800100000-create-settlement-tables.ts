import { MigrationInterface, QueryRunner } from 'typeorm';

import { createMessagingTables, dropMessagingTables } from '@onramp/persistence';

// One settlement per order (the primary key is the order uuid: a second payment.confirmed cannot
// create a second payout), the nonce counter per hot wallet, and a log of the FX quotes used.
export class CreateSettlementTables1763800100000 implements MigrationInterface {
  name = 'CreateSettlementTables1763800100000';

  async up(qr: QueryRunner): Promise<void> {
    await createMessagingTables(qr, 'settlement');
    await qr.query(`
      CREATE TABLE "settlement"."settlements" (
        "order_uuid" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "bank_transaction_id" UUID NOT NULL,
        "reference" TEXT NOT NULL,
        "recipient_address" TEXT NOT NULL,
        "payed_amount" NUMERIC(20,2) NOT NULL,
        "payer_account_holder_name" TEXT NOT NULL,
        "fx_rate_base" NUMERIC,
        "fx_rate_effective" NUMERIC,
        "fx_rate_updated_at" TIMESTAMPTZ,
        "token_amount" NUMERIC(30,6),
        "token_base_units" NUMERIC(78,0),
        "state" TEXT NOT NULL CHECK ("state" IN ('PENDING', 'SIGNED', 'BROADCAST', 'CONFIRMED', 'FAILED')),
        "signer_address" TEXT,
        "nonce" BIGINT,
        "raw_tx" TEXT,
        "tx_hash" TEXT,
        "block_number" BIGINT,
        "last_error" TEXT,
        "attempts" INT NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "broadcast_at" TIMESTAMPTZ,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        -- past PENDING the signed bytes, their hash and the nonce exist: a restart re-sends exactly them
        CONSTRAINT "settlements_signed_has_tx" CHECK (
          "state" = 'PENDING' OR ("raw_tx" IS NOT NULL AND "tx_hash" IS NOT NULL AND "nonce" IS NOT NULL AND "signer_address" IS NOT NULL)
        ),
        CONSTRAINT "settlements_quoted_before_signing" CHECK ("state" = 'PENDING' OR "token_base_units" IS NOT NULL)
      )`);
    await qr.query(
      `CREATE INDEX "settlements_to_drive" ON "settlement"."settlements" ("created_at")
       WHERE "state" IN ('PENDING', 'SIGNED', 'BROADCAST')`,
    );
    // A nonce of one hot wallet carries exactly one of our transactions.
    await qr.query(
      `CREATE UNIQUE INDEX "settlements_one_tx_per_nonce" ON "settlement"."settlements" ("signer_address", "nonce")
       WHERE "nonce" IS NOT NULL`,
    );
    await qr.query(
      `CREATE UNIQUE INDEX "settlements_tx_hash" ON "settlement"."settlements" ("tx_hash") WHERE "tx_hash" IS NOT NULL`,
    );
    await qr.query(`
      CREATE TABLE "settlement"."signers" (
        "address" TEXT PRIMARY KEY,
        "chain_id" INT NOT NULL,
        "next_nonce" BIGINT NOT NULL CHECK ("next_nonce" >= 0),
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(`
      CREATE TABLE "settlement"."fx_quotes" (
        "id" BIGSERIAL PRIMARY KEY,
        "order_uuid" UUID NOT NULL,
        "source" TEXT NOT NULL,
        "fx_rate_base" NUMERIC NOT NULL,
        "fee" NUMERIC NOT NULL,
        "fx_rate_effective" NUMERIC NOT NULL,
        "rate_updated_at" TIMESTAMPTZ NOT NULL,
        "payed_amount" NUMERIC(20,2) NOT NULL,
        "token_amount" NUMERIC(30,6) NOT NULL,
        "quoted_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(`CREATE INDEX "fx_quotes_order" ON "settlement"."fx_quotes" ("order_uuid")`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "settlement"."fx_quotes"`);
    await qr.query(`DROP TABLE "settlement"."signers"`);
    await qr.query(`DROP TABLE "settlement"."settlements"`);
    await dropMessagingTables(qr, 'settlement');
  }
}
