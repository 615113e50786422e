import { MigrationInterface, QueryRunner } from 'typeorm';

// Two reads of every signing pass that grew with the table.
//
// The rolling 24 h payout cap summed every settlement the signer signed in the last day, row by row:
// a day at 50 payouts a second is 4.3 million rows read per signing pass. signed_totals keeps the
// amounts signed per signer and minute instead, added in the statement that signs; the cap reads at
// most 1,441 rows per signer. Backfilled from the settlements signed in the last 25 hours.
//
// settlements_to_drive did not cover HELD, so picking the PENDING and HELD settlements to sign
// (state IN ('PENDING', 'HELD')) could not use it and scanned the whole table; it covers HELD now.
export class SignedTotalsAndHeldIndex1764900000000 implements MigrationInterface {
  name = 'SignedTotalsAndHeldIndex1764900000000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`
      CREATE TABLE "settlement"."signed_totals" (
        "signer_address" TEXT NOT NULL,
        "minute" TIMESTAMPTZ NOT NULL,
        "base_units" NUMERIC(78, 0) NOT NULL CHECK ("base_units" >= 0),
        PRIMARY KEY ("signer_address", "minute")
      )`);
    await qr.query(`
      INSERT INTO "settlement"."signed_totals" ("signer_address", "minute", "base_units")
      SELECT "signer_address", date_trunc('minute', "signed_at"), SUM("token_base_units")
      FROM "settlement"."settlements"
      WHERE "signed_at" > now() - interval '25 hours' AND "signer_address" IS NOT NULL
      GROUP BY 1, 2`);
    await qr.query(`DROP INDEX "settlement"."settlements_to_drive"`);
    await qr.query(
      `CREATE INDEX "settlements_to_drive" ON "settlement"."settlements" ("created_at")
       WHERE "state" IN ('PENDING', 'HELD', 'SIGNED', 'BROADCAST')`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP INDEX "settlement"."settlements_to_drive"`);
    await qr.query(
      `CREATE INDEX "settlements_to_drive" ON "settlement"."settlements" ("created_at")
       WHERE "state" IN ('PENDING', 'SIGNED', 'BROADCAST')`,
    );
    await qr.query(`DROP TABLE "settlement"."signed_totals"`);
  }
}
