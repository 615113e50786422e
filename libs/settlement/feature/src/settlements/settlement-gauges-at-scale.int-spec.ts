import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { SETTLEMENT_SCHEMA } from '../config';
import { openPlanTestDataSource } from '../testing/plan-test-data-source';
import { countConfirmed, readSettlementGauges } from './settlement.repository';

const SIGNER = '0x00000000000000000000000000000000000000a1';
const PREFIXES = { underfunded: 'hot wallet underfunded', refused: 'recipient refused' };

// The metrics read the settlements at every scrape, on every replica. Counted by state over the whole
// table, a scrape read every payout ever confirmed (180-200 ms at 1,000,000 settlements). The gauges
// now read only the rows they count (open, or ended unpaid), whatever the plan was made on; the
// CONFIRMED total is countConfirmed's, which the metrics take less often (RecountedTotal).
describe('the settlement gauges, beside a history of payouts (real Postgres)', () => {
  let ds: DataSource;
  let nonce = 0;

  const insert = (state: string, count: number, signed: boolean, lastError: string | null = null) => {
    const first = nonce;
    nonce += count;
    return ds.query(
      `INSERT INTO settlement.settlements (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address,
         payed_amount, payer_account_holder_name, token_base_units, state, signer_address, nonce, raw_tx, tx_hash,
         last_error)
       SELECT gen_random_uuid(), $1, gen_random_uuid(), 'RF18', '0x01', 1, 'J', 1000000, $2,
              CASE WHEN $3 THEN $4 END, CASE WHEN $3 THEN $5::bigint + i END, CASE WHEN $3 THEN '0xraw' END,
              CASE WHEN $3 THEN '0x' || md5(random()::text) END, $6
       FROM generate_series(0, $7::int - 1) AS i`,
      [randomUUID(), state, signed, SIGNER, first, lastError, count],
    );
  };

  // settlements rows read by everything this connection ran since the last call: the pool has one
  // connection, and its statistics are flushed before they are read
  const rowsRead = async (): Promise<number> => {
    await ds.query('SELECT pg_stat_force_next_flush()');
    await ds.query('SELECT pg_stat_clear_snapshot()');
    const [row] = await ds.query(
      `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
       FROM pg_stat_user_tables WHERE schemaname = $1 AND relname = 'settlements'`,
      [SETTLEMENT_SCHEMA],
    );
    return row.read as number;
  };

  beforeAll(async () => {
    ds = await openPlanTestDataSource(); // one connection, autovacuum off: plans made on a handful of rows
    await insert('CONFIRMED', 2, true);
    await insert('PENDING', 1, false);
    await ds.query('VACUUM (ANALYZE) settlement.settlements');
  });
  afterAll(async () => ds?.destroy());

  it('counts the open and unpaid settlements without reading the confirmed ones', async () => {
    await readSettlementGauges(ds.manager, PREFIXES); // planned here, on three rows
    await insert('CONFIRMED', 5000, true);
    await insert('PENDING', 6, false);
    await insert('PENDING', 2, false, `${PREFIXES.underfunded}: 0 USDC`);
    await insert('BROADCAST', 5, true);
    await insert('FAILED', 2, true, `${PREFIXES.refused}: blacklisted`);
    await insert('FAILED', 1, true, 'reverted');
    await insert('CANCELLED', 1, false);

    for (let scrape = 0; scrape < 3; scrape++) {
      const before = await rowsRead();
      const gauges = await readSettlementGauges(ds.manager, PREFIXES);
      const read = (await rowsRead()) - before;
      expect(Object.fromEntries(gauges.byState.map((r) => [r.state, r.n]))).toEqual({
        PENDING: 9,
        BROADCAST: 5,
        FAILED: 3,
        CANCELLED: 1,
      });
      expect(gauges.underfunded).toBe(2);
      expect(gauges.refused).toBe(2);
      expect(gauges.oldestOpenAgeSeconds).not.toBeNull();
      // each count reads its own rows: by state 14 open and 4 unpaid, 9 PENDING for the underfunded,
      // the oldest open through its index, 3 FAILED for the refused: far from the 5,000 confirmed
      expect(read).toBeLessThanOrEqual(40);
    }
    expect(await countConfirmed(ds.manager)).toBe(5002);
  });
});
