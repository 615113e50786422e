import { MigrationInterface, QueryRunner } from 'typeorm';

// The payer's name and IBAN are stored sealed under the payer-data ring from now on (the columns keep
// their names and take the sealed text); sealed values cannot be compared in SQL, so the IBAN lookups
// (reversals, settled returns) use a blind index (a keyed hash) beside them. The migration holds no
// key: rows written before stay plain (and found by the plain IBAN) until `npm run rekey` seals and
// indexes them.
export class SealedPayerData1764500000000 implements MigrationInterface {
  name = 'SealedPayerData1764500000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`ALTER TABLE "payments"."bank_transactions" ADD COLUMN "payer_iban_index" TEXT`);
    await qr.query(
      `CREATE INDEX "bank_transactions_payer_iban_index" ON "payments"."bank_transactions" ("payer_iban_index")
       WHERE "payer_iban_index" IS NOT NULL`,
    );
    await qr.query(`ALTER TABLE "payments"."returns" ADD COLUMN "creditor_iban_index" TEXT`);
    await qr.query(
      `CREATE INDEX "returns_creditor_iban_index" ON "payments"."returns" ("creditor_iban_index")
       WHERE "status" = 'RETURN_PENDING'`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "payments"."returns_creditor_iban_index"`);
    await qr.query(`ALTER TABLE "payments"."returns" DROP COLUMN "creditor_iban_index"`);
    await qr.query(`DROP INDEX "payments"."bank_transactions_payer_iban_index"`);
    await qr.query(`ALTER TABLE "payments"."bank_transactions" DROP COLUMN "payer_iban_index"`);
  }
}
