import { QueryRunner } from 'typeorm';

// Outbox (events waiting to be published) and inbox (events already handled) live in every
// service's own schema, so a state change, its events and its consumed-event mark commit together.
export async function createMessagingTables(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`
    CREATE TABLE "${schema}"."outbox" (
      "seq" BIGSERIAL PRIMARY KEY,
      "event_id" UUID NOT NULL UNIQUE,
      "topic" TEXT NOT NULL,
      "key" TEXT NOT NULL,
      "envelope" JSONB NOT NULL,
      "headers" JSONB NOT NULL DEFAULT '{}',
      "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "published_at" TIMESTAMPTZ
    )`);
  await qr.query(
    `CREATE INDEX "outbox_unpublished" ON "${schema}"."outbox" ("seq") WHERE "published_at" IS NULL`,
  );
  await qr.query(`
    CREATE TABLE "${schema}"."inbox" (
      "consumer" TEXT NOT NULL,
      "event_id" UUID NOT NULL,
      "topic" TEXT NOT NULL,
      "handled_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY ("consumer", "event_id")
    )`);
}

export async function dropMessagingTables(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`DROP TABLE "${schema}"."inbox"`);
  await qr.query(`DROP TABLE "${schema}"."outbox"`);
}

// Idempotency-Key records for the public POSTs (docs/api.md, Conventions), kept at least 24 h.
export async function createIdempotencyTable(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`
    CREATE TABLE "${schema}"."idempotency_keys" (
      "merchant_id" UUID NOT NULL,
      "key" TEXT NOT NULL,
      "request_hash" TEXT NOT NULL,
      "response_status" INT NOT NULL,
      "response_body" JSONB NOT NULL,
      "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      PRIMARY KEY ("merchant_id", "key")
    )`);
}

export async function dropIdempotencyTable(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`DROP TABLE "${schema}"."idempotency_keys"`);
}
