import { MigrationInterface, QueryRunner } from 'typeorm';

import { createMessagingTables, dropMessagingTables } from '@onramp/persistence';

const S = 'webhooks';

export class CreateWebhooksSchema1767225600000 implements MigrationInterface {
  name = 'CreateWebhooksSchema1767225600000';

  async up(qr: QueryRunner): Promise<void> {
    await createMessagingTables(qr, S);
    await qr.query(`
      CREATE TABLE "${S}"."endpoints" (
        "merchant_id" UUID PRIMARY KEY,
        "url" TEXT NOT NULL,
        "secret_enc" TEXT NOT NULL,
        "disabled_at" TIMESTAMPTZ,
        "disabled_reason" TEXT,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    // body is the exact text sent (fixed at creation); retry_from starts the current retry window
    // (creation, endpoint registration, re-enable or manual redelivery).
    await qr.query(`
      CREATE TABLE "${S}"."deliveries" (
        "id" UUID PRIMARY KEY,
        "event_id" UUID NOT NULL UNIQUE,
        "merchant_id" UUID NOT NULL,
        "event_type" TEXT NOT NULL,
        "order_uuid" UUID NOT NULL,
        "body" TEXT NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('PENDING', 'NO_ENDPOINT', 'DELIVERED', 'DEAD', 'DISABLED')),
        "attempts" INT NOT NULL DEFAULT 0,
        "next_attempt_at" TIMESTAMPTZ,
        "retry_from" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "last_status_code" INT,
        "last_error" TEXT,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "delivered_at" TIMESTAMPTZ
      )`);
    await qr.query(
      `CREATE INDEX "deliveries_due" ON "${S}"."deliveries" ("next_attempt_at") WHERE "status" = 'PENDING'`,
    );
    await qr.query(
      `CREATE INDEX "deliveries_by_merchant" ON "${S}"."deliveries" ("merchant_id", "created_at" DESC, "id" DESC)`,
    );
    await qr.query(`
      CREATE TABLE "${S}"."delivery_attempts" (
        "delivery_id" UUID NOT NULL REFERENCES "${S}"."deliveries" ("id") ON DELETE CASCADE,
        "attempt_no" INT NOT NULL,
        "status_code" INT,
        "error" TEXT,
        "duration_ms" INT NOT NULL,
        "at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY ("delivery_id", "attempt_no")
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "${S}"."delivery_attempts"`);
    await qr.query(`DROP TABLE "${S}"."deliveries"`);
    await qr.query(`DROP TABLE "${S}"."endpoints"`);
    await dropMessagingTables(qr, S);
  }
}
