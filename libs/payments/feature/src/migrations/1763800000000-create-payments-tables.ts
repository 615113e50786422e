import { MigrationInterface, QueryRunner } from 'typeorm';

import { createMessagingTables, dropMessagingTables } from '@onramp/persistence';

// Open references (one per order, learned from order.created) and every bank credit we receive,
// matched or not. No credit is ever dropped: an unmatched one waits for its order.created.
export class CreatePaymentsTables1763800000000 implements MigrationInterface {
  name = 'CreatePaymentsTables1763800000000';

  async up(qr: QueryRunner): Promise<void> {
    await createMessagingTables(qr, 'payments');
    await qr.query(`
      CREATE TABLE "payments"."open_references" (
        "reference" TEXT PRIMARY KEY,
        "order_uuid" UUID NOT NULL UNIQUE,
        "merchant_id" UUID NOT NULL,
        "amount" NUMERIC(20,2) NOT NULL,
        "currency" TEXT NOT NULL,
        "recipient_address" TEXT NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('OPEN', 'MATCHED', 'CLOSED')),
        "matched_bank_transaction_id" UUID,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(`CREATE INDEX "open_references_merchant" ON "payments"."open_references" ("merchant_id")`);
    await qr.query(`
      CREATE TABLE "payments"."bank_transactions" (
        "id" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "reference_raw" TEXT,
        "remittance_information" TEXT,
        "end_to_end_id" TEXT,
        "candidate_references" TEXT[] NOT NULL DEFAULT '{}',
        "amount" NUMERIC(20,2) NOT NULL CHECK ("amount" > 0),
        "currency" TEXT NOT NULL,
        "payer_name" TEXT NOT NULL,
        "payer_iban" TEXT,
        "status" TEXT NOT NULL CHECK ("status" IN ('BOOKED', 'REJECTED')),
        "match_status" TEXT NOT NULL CHECK ("match_status" IN ('MATCHED', 'UNMATCHED', 'DUPLICATE')),
        "matched_reference" TEXT,
        "matched_order_uuid" UUID,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(
      `CREATE INDEX "bank_transactions_merchant_newest" ON "payments"."bank_transactions" ("merchant_id", "created_at" DESC)`,
    );
    await qr.query(
      `CREATE INDEX "bank_transactions_waiting" ON "payments"."bank_transactions" USING GIN ("candidate_references")
       WHERE "match_status" = 'UNMATCHED'`,
    );
    // The last line of defence of "money never pays twice": one matched credit per order.
    await qr.query(
      `CREATE UNIQUE INDEX "bank_transactions_one_match_per_order" ON "payments"."bank_transactions" ("matched_order_uuid")
       WHERE "match_status" = 'MATCHED'`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "payments"."bank_transactions"`);
    await qr.query(`DROP TABLE "payments"."open_references"`);
    await dropMessagingTables(qr, 'payments');
  }
}
