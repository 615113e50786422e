import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { ensureSchema, serviceDataSourceOptions } from '@onramp/persistence';
import { SERVICE_DATABASE, SETTLEMENT_SCHEMA } from '@onramp/settlement-feature';

import { freshDatabase } from '../testing/chain-settlement-test-app';

// A database upgraded during a day of payouts keeps its rolling cap: the totals per minute start
// from the settlements signed in the last 25 hours. And the settlements to sign (PENDING, HELD) can
// be picked through settlements_to_drive instead of a scan of every settlement.
describe('migration SignedTotalsAndHeldIndex1764900000000 (integration)', () => {
  // up to and including the migration under test, whichever come after it
  const all = SERVICE_DATABASE.migrations as Array<new () => { name?: string }>;
  const migrations = all.slice(
    0,
    all.findIndex((m) => new m().name === 'SignedTotalsAndHeldIndex1764900000000') + 1,
  );
  let ds: DataSource;

  const open = async (url: string, list: Array<new () => object>) => {
    const d = new DataSource(
      serviceDataSourceOptions({ url, schema: SETTLEMENT_SCHEMA, entities: [], migrations: list }),
    );
    await d.initialize();
    return d;
  };

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('adds up the last 25 hours per signer and minute, and goes down and up again', async () => {
    expect(migrations.length).toBeGreaterThan(1);
    const url = await freshDatabase();
    await ensureSchema(url, SETTLEMENT_SCHEMA);
    const before = await open(url, migrations.slice(0, -1));
    await before.runMigrations();
    // signed `seconds` after the start of the minute two hours ago
    const signed = (signer: string, units: number, seconds: number) =>
      before.query(
        `INSERT INTO settlement.settlements (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address,
           payed_amount, payer_account_holder_name, token_base_units, state, signer_address, nonce, raw_tx, tx_hash, signed_at)
         VALUES ($1, $2, $2, 'RF18', '0x01', 1, 'J', $3, 'CONFIRMED', $4,
           (SELECT count(*) FROM settlement.settlements), $5, $5,
           date_trunc('minute', now() - interval '2 hours') + $6 * interval '1 second')`,
        [randomUUID(), randomUUID(), units, signer, randomUUID(), seconds],
      );
    await signed('0xa', 1_000_000, 5);
    await signed('0xa', 2_500_000, 55); // the same minute
    await signed('0xa', 4_000_000, 60); // the next one
    await signed('0xb', 7_000_000, 30);
    await signed('0xa', 9_000_000, -26 * 3600); // long out of every window
    await before.destroy();

    ds = await open(url, migrations);
    await ds.runMigrations();
    const totals = await ds.query(
      `SELECT signer_address, base_units::text FROM settlement.signed_totals ORDER BY signer_address, minute`,
    );
    expect(totals).toEqual([
      { signer_address: '0xa', base_units: '3500000' },
      { signer_address: '0xa', base_units: '4000000' },
      { signer_address: '0xb', base_units: '7000000' },
    ]);

    await ds.query(`SET enable_seqscan = off`);
    const plan = await ds.query(
      `EXPLAIN SELECT order_uuid FROM settlement.settlements
       WHERE state IN ('PENDING', 'HELD') AND next_attempt_at <= now() ORDER BY created_at LIMIT 50`,
    );
    expect(JSON.stringify(plan)).toContain('settlements_to_drive');
    await ds.query(`RESET enable_seqscan`);

    await ds.undoLastMigration();
    const [{ present }] = await ds.query(
      `SELECT to_regclass('settlement.signed_totals') IS NOT NULL AS present`,
    );
    expect(present).toBe(false);
    await ds.runMigrations();
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM settlement.signed_totals`);
    expect(n).toBe(totals.length);
  });
});
