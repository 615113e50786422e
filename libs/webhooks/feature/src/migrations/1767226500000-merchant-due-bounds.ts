import { MigrationInterface, QueryRunner } from 'typeorm';

const S = 'webhooks';

// A lower bound per merchant of when its next delivery can be claimed, so that the claim visits
// the merchants with something due, not every merchant with something pending. 8,000 merchants
// whose endpoints are down, each with retries an hour away, made a claim of 300 take 36-76 ms
// instead of 10-15: the claim walked each of them.
//
// Two tables, so that no writer of a delivery ever takes a lock for it:
// - merchant_due holds the bound and a version. Only the claim writes it (and an endpoint's
//   creation or change, which resets it to -infinity). The claim raises a merchant's bound when it
//   found nothing to take there, to the earliest due time it read, and only if the version is still
//   the one it read with that snapshot; it never waits for a row another claim holds.
// - merchant_due_hints takes, from triggers on deliveries, a row for every write that makes a
//   delivery due sooner than it was: an insert of a PENDING delivery, a delivery becoming PENDING,
//   a lease or retry time moved earlier. Appended only, so writers never wait on each other or on a
//   claim, whatever order their statements come in. The claim walks the hints come due with the
//   bounds, folds a merchant's into its bound (under that bound's row lock) and deletes the ones it
//   saw: a hint committed after its snapshot stays for the next claim, one not yet due for its time.
// The claim's side is in WebhookDeliveriesRepository.claimDue.
// A merchant's earliest due delivery is never earlier than the least of its bound and its hints.
// The triggers catch every writer, also scripts and old code during a rolling upgrade.
export class MerchantDueBounds1767226500000 implements MigrationInterface {
  name = 'MerchantDueBounds1767226500000';

  async up(qr: QueryRunner): Promise<void> {
    // Room on the page for the claim's updates to be HOT (most leave due_at as it was).
    await qr.query(
      `CREATE TABLE "${S}"."merchant_due" (
         "merchant_id" uuid PRIMARY KEY,
         "due_at" timestamptz NOT NULL,
         "version" bigint NOT NULL DEFAULT 1
       ) WITH (fillfactor = 50, autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`,
    );
    await qr.query(`CREATE INDEX "merchant_due_by_due_at" ON "${S}"."merchant_due" ("due_at")`);
    await qr.query(
      `CREATE TABLE "${S}"."merchant_due_hints" (
         "merchant_id" uuid NOT NULL,
         "due_at" timestamptz NOT NULL
       ) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 1000)`,
    );
    // The claim reads only the hints come due: a hint of a delivery handed over with its lease is due
    // when the lease runs out, and thousands of those wait at a time at a high rate.
    await qr.query(`CREATE INDEX "merchant_due_hints_by_due_at" ON "${S}"."merchant_due_hints" ("due_at")`);

    // One hint per merchant per inserting statement (a consumer batch inserts a run at once).
    await qr.query(
      `CREATE FUNCTION "${S}"."hint_inserted_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO "${S}"."merchant_due_hints" (merchant_id, due_at)
         SELECT merchant_id, min(GREATEST(next_attempt_at, lease_until)) FROM added
         WHERE status = 'PENDING' GROUP BY merchant_id;
         RETURN NULL;
       END $$`,
    );
    await qr.query(
      `CREATE TRIGGER "deliveries_hint_inserted" AFTER INSERT ON "${S}"."deliveries"
       REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "${S}"."hint_inserted_deliveries"()`,
    );
    // Per row, with the test in WHEN: most updates (a claim's lease, a delivered or dead result) make
    // nothing due sooner and never call the function. A PENDING row always has next_attempt_at; the
    // COALESCEs only make a NULL count as "sooner".
    await qr.query(
      `CREATE FUNCTION "${S}"."hint_updated_delivery"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO "${S}"."merchant_due_hints" (merchant_id, due_at)
         VALUES (NEW.merchant_id, COALESCE(GREATEST(NEW.next_attempt_at, NEW.lease_until), '-infinity'));
         RETURN NULL;
       END $$`,
    );
    await qr.query(
      `CREATE TRIGGER "deliveries_hint_updated" AFTER UPDATE ON "${S}"."deliveries" FOR EACH ROW
       WHEN (NEW.status = 'PENDING' AND (
         OLD.status IS DISTINCT FROM 'PENDING'
         OR COALESCE(GREATEST(NEW.next_attempt_at, NEW.lease_until), '-infinity')
            < COALESCE(GREATEST(OLD.next_attempt_at, OLD.lease_until), 'infinity')))
       EXECUTE FUNCTION "${S}"."hint_updated_delivery"()`,
    );
    // A merchant's bound exists from its first endpoint on (only a merchant with an endpoint has
    // PENDING deliveries), and any change to the endpoint makes it due at once: cheap, rare, and no
    // reasoning needed about what a re-enabled endpoint left waiting.
    await qr.query(
      `CREATE FUNCTION "${S}"."reset_merchant_due"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO "${S}"."merchant_due" AS m (merchant_id, due_at) VALUES (NEW.merchant_id, '-infinity')
         ON CONFLICT (merchant_id) DO UPDATE SET due_at = '-infinity', version = m.version + 1;
         RETURN NULL;
       END $$`,
    );
    await qr.query(
      `CREATE TRIGGER "endpoints_reset_merchant_due" AFTER INSERT OR UPDATE ON "${S}"."endpoints" FOR EACH ROW
       EXECUTE FUNCTION "${S}"."reset_merchant_due"()`,
    );
    // Every merchant with an endpoint starts due: the first claims visit each once and raise the bound.
    // The triggers above hold the tables' locks until this commits, so no write slips between.
    await qr.query(
      `INSERT INTO "${S}"."merchant_due" (merchant_id, due_at) SELECT merchant_id, '-infinity' FROM "${S}"."endpoints"`,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP TRIGGER "endpoints_reset_merchant_due" ON "${S}"."endpoints"`);
    await qr.query(`DROP TRIGGER "deliveries_hint_updated" ON "${S}"."deliveries"`);
    await qr.query(`DROP TRIGGER "deliveries_hint_inserted" ON "${S}"."deliveries"`);
    await qr.query(`DROP FUNCTION "${S}"."reset_merchant_due"()`);
    await qr.query(`DROP FUNCTION "${S}"."hint_updated_delivery"()`);
    await qr.query(`DROP FUNCTION "${S}"."hint_inserted_deliveries"()`);
    await qr.query(`DROP TABLE "${S}"."merchant_due_hints"`);
    await qr.query(`DROP TABLE "${S}"."merchant_due"`);
  }
}
