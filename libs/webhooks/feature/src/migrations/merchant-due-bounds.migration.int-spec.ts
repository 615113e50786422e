import { DataSource } from 'typeorm';

import { migratedUpTo } from '../testing/migrated-up-to';

// The bounds start at -infinity for every merchant with an endpoint (each is walked once by the first
// claims), and the migration goes down and up again.
describe('migration MerchantDueBounds1767226500000 (integration)', () => {
  let ds: DataSource | undefined;

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('starts every merchant with an endpoint due, and goes down and up again', async () => {
    ds = await migratedUpTo('MerchantDueBounds1767226500000');
    await ds.undoLastMigration();
    const [{ merchant }] = await ds.query(
      `INSERT INTO webhooks.endpoints (merchant_id, url, secret_enc)
       VALUES (gen_random_uuid(), 'http://127.0.0.1:1/hooks', 'sealed') RETURNING merchant_id AS merchant`,
    );
    const tables = async () =>
      (
        await ds!.query(
          `SELECT count(*)::int AS n FROM information_schema.tables
           WHERE table_schema = 'webhooks' AND table_name IN ('merchant_due', 'merchant_due_hints')`,
        )
      )[0].n;
    expect(await tables()).toBe(0);

    await ds.runMigrations();
    expect(await tables()).toBe(2);
    const rows = await ds.query(
      `SELECT due_at = '-infinity' AS due FROM webhooks.merchant_due WHERE merchant_id = $1`,
      [merchant],
    );
    expect(rows).toEqual([{ due: true }]);
  });
});
