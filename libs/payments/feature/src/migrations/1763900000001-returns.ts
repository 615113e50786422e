import { MigrationInterface, QueryRunner } from 'typeorm';

// Money sent back to a payer: one return per credit at most (unique), with the pain.001 that
// instructs the bank, RETURN_PENDING until a statement shows the money left.
export class Returns1763900000001 implements MigrationInterface {
  name = 'Returns1763900000001';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "payments"."returns" (
        "id" UUID PRIMARY KEY,
        "bank_transaction_id" UUID NOT NULL UNIQUE REFERENCES "payments"."bank_transactions" ("id"),
        "amount" NUMERIC(20,2) NOT NULL CHECK ("amount" > 0),
        "currency" TEXT NOT NULL,
        "creditor_name" TEXT NOT NULL,
        "creditor_iban" TEXT NOT NULL,
        "original_end_to_end_id" TEXT,
        "reason" TEXT NOT NULL,
        "status" TEXT NOT NULL CHECK ("status" IN ('RETURN_PENDING', 'RETURNED')),
        "message_id" TEXT NOT NULL UNIQUE,
        "pain001" TEXT NOT NULL,
        "created_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
        "updated_at" TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TABLE "payments"."returns"`);
  }
}
