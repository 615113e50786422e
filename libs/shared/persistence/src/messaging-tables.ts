import { MigrationInterface, QueryRunner } from 'typeorm';

import { sqlMigration } from './sql-migration';

// Outbox (events waiting to be published) and inbox (events already handled) live in every
// service's own schema, so a state change, its events and its consumed-event mark commit together.
// As the services first created them (their first migrations run this); a later migration of each
// makes the outbox a queue (outboxDeleteOnPublishMigration, below).
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

// The outbox as a queue: the relay deletes the rows it published instead of setting `published_at`
// (an update of a column in the partial index's predicate was never HOT: it wrote the row and its
// index entries again, costlier than appending the event to the log; docs/performance-journal.md). Every row
// left is unpublished, so the partial index and the column go; the rows already published are
// deleted (they are on the bus: the embedded log or Kafka). Down restores the column and the index,
// not the deleted history.
export function outboxDeleteOnPublishSql(schema: string): { up: string[]; down: string[] } {
  const outbox = `"${schema}"."outbox"`;
  return {
    up: [
      `DELETE FROM ${outbox} WHERE "published_at" IS NOT NULL`,
      `DROP INDEX "${schema}"."outbox_unpublished"`,
      `ALTER TABLE ${outbox} DROP COLUMN "published_at"`,
    ],
    down: [
      `ALTER TABLE ${outbox} ADD COLUMN "published_at" TIMESTAMPTZ`,
      `CREATE INDEX "outbox_unpublished" ON ${outbox} ("seq") WHERE "published_at" IS NULL`,
    ],
  };
}

export function outboxDeleteOnPublishMigration(name: string, schema: string): new () => MigrationInterface {
  return sqlMigration(name, outboxDeleteOnPublishSql(schema));
}

// The outbox keeps each row's key hash (Kafka's murmur2 of the key, made positive), computed by the
// writer in JavaScript, so that the embedded bus's move takes the partition as `key_hash % partitions`
// instead of hashing the key in PL/pgSQL (14 us a key, two fifths of a move of 1,000 rows in P5,
// docs/performance-journal.md). Nullable: a row written before (or by an older release during a rolling
// update) has none, and the move hashes its key in SQL as before. No default, so adding it rewrites
// nothing.
export function outboxKeyHashSql(schema: string): { up: string[]; down: string[] } {
  const outbox = `"${schema}"."outbox"`;
  return {
    up: [`ALTER TABLE ${outbox} ADD COLUMN "key_hash" INTEGER`],
    down: [`ALTER TABLE ${outbox} DROP COLUMN "key_hash"`],
  };
}

export function outboxKeyHashMigration(name: string, schema: string): new () => MigrationInterface {
  return sqlMigration(name, outboxKeyHashSql(schema));
}
