import { MigrationInterface, QueryRunner } from 'typeorm';

import {
  createIdempotencyTable,
  createMessagingTables,
  dropIdempotencyTable,
  dropMessagingTables,
} from '@onramp/persistence';

export class CreateOrders1750000200000 implements MigrationInterface {
  name = 'CreateOrders1750000200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "orders"."orders" (
        "uuid" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "kyc_user_uuid" UUID NOT NULL,
        "amount" NUMERIC(20,2) NOT NULL CHECK ("amount" > 0),
        "currency" TEXT NOT NULL CHECK ("currency" = 'EUR'),
        "recipient_address" TEXT NOT NULL,
        "reference" TEXT NOT NULL CONSTRAINT "orders_reference_key" UNIQUE,
        "iban" TEXT NOT NULL,
        "bic" TEXT NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('CREATED', 'COMPLETED', 'FAILED')),
        "payed_amount" NUMERIC(20,2),
        "payer_account_holder_name" TEXT,
        "sent_token_amount" NUMERIC(30,6),
        "transaction_hash" TEXT,
        "fx_rate_base" NUMERIC,
        "fx_rate_effective" NUMERIC,
        "fx_rate_updated_at" TIMESTAMPTZ,
        "failure_reason" TEXT,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "completed_at" TIMESTAMPTZ,
        "failed_at" TIMESTAMPTZ,
        -- a terminal order carries the timestamp of its terminal state, and only that one
        CHECK (("status" = 'COMPLETED') = ("completed_at" IS NOT NULL)),
        CHECK (("status" = 'FAILED') = ("failed_at" IS NOT NULL))
      )`);
    await qr.query(
      `CREATE INDEX "orders_merchant_newest" ON "orders"."orders" ("merchant_id", "created_at" DESC, "uuid" DESC)`,
    );
    await qr.query(`
      CREATE TABLE "orders"."order_status_history" (
        "id" BIGSERIAL PRIMARY KEY,
        "order_uuid" UUID NOT NULL REFERENCES "orders"."orders" ("uuid"),
        "from_status" TEXT,
        "to_status" TEXT NOT NULL,
        "reason" TEXT,
        "event_id" UUID,
        "at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(
      `CREATE INDEX "order_status_history_order" ON "orders"."order_status_history" ("order_uuid", "id")`,
    );
    // What orders knows of KYC users, from kyc.user.registered (or the read-your-write call).
    await qr.query(`
      CREATE TABLE "orders"."kyc_users" (
        "uuid" UUID PRIMARY KEY,
        "merchant_id" UUID NOT NULL,
        "status" TEXT NOT NULL,
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await createMessagingTables(qr, 'orders');
    await createIdempotencyTable(qr, 'orders');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropIdempotencyTable(qr, 'orders');
    await dropMessagingTables(qr, 'orders');
    await qr.query(`DROP TABLE "orders"."kyc_users"`);
    await qr.query(`DROP TABLE "orders"."order_status_history"`);
    await qr.query(`DROP TABLE "orders"."orders"`);
  }
}
