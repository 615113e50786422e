import { MigrationInterface, QueryRunner } from 'typeorm';

// Every signed transaction of a settlement, not only the last one: a stuck transaction is replaced
// with the same nonce and higher fees, and either may end up mined. Rows signed before this
// migration are copied in (their fees are in their raw bytes).
export class CreateSettlementTransactions1763800200000 implements MigrationInterface {
  name = 'CreateSettlementTransactions1763800200000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "settlement"."settlement_transactions" (
        "tx_hash" TEXT PRIMARY KEY,
        "id" BIGSERIAL NOT NULL UNIQUE,
        "order_uuid" UUID NOT NULL REFERENCES "settlement"."settlements" ("order_uuid"),
        "signer_address" TEXT NOT NULL,
        "nonce" BIGINT NOT NULL CHECK ("nonce" >= 0),
        "raw_tx" TEXT NOT NULL,
        "max_fee_per_gas" NUMERIC(78,0),
        "max_priority_fee_per_gas" NUMERIC(78,0),
        "gas_price" NUMERIC(78,0),
        "first_sent_at" TIMESTAMPTZ,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await qr.query(
      `CREATE INDEX "settlement_transactions_of_settlement" ON "settlement"."settlement_transactions" ("order_uuid", "id")`,
    );
    await qr.query(`
      INSERT INTO "settlement"."settlement_transactions"
        ("tx_hash", "order_uuid", "signer_address", "nonce", "raw_tx", "first_sent_at", "created_at")
      SELECT "tx_hash", "order_uuid", "signer_address", "nonce", "raw_tx", "broadcast_at", "updated_at"
      FROM "settlement"."settlements" WHERE "tx_hash" IS NOT NULL
      ORDER BY "nonce"`);
  }

  // Keeps each settlement's current transaction (settlements.raw_tx / tx_hash); the replaced ones are lost.
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "settlement"."settlement_transactions"`);
  }
}
