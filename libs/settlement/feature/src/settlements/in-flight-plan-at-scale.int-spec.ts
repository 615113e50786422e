import { randomUUID } from 'node:crypto';

import { DataSource, EntityManager } from 'typeorm';

import { SETTLEMENT_SCHEMA } from '../config';
import { openPlanTestDataSource } from '../testing/plan-test-data-source';
import { lockInFlightWithTransactions, walletCommitments } from './settlement.repository';

const SIGNER = '0x00000000000000000000000000000000000000a1';
const OTHER_SIGNER = '0x00000000000000000000000000000000000000b2';
const IN_FLIGHT = 12;

// A signer's in-flight look (its SIGNED and BROADCAST settlements, in nonce order) runs at every pass
// of the worker, and the wallet's commitments before every signing batch. Both once walked the index
// of every open settlement (PENDING and HELD included, every signer's) or the signer's whole history
// by nonce: with a backlog of 2,000 PENDING (a drain) each look read 2,000 rows to find a dozen, and
// with a year of payouts the history index would be walked from its first nonce. Only the signer's
// transactions in flight are read now, whatever waits or is done. This spec counts the rows each
// call read (the transaction's own statistics), not its time.
describe("a signer's in-flight settlements, beside a backlog and a history (real Postgres)", () => {
  let ds: DataSource;

  const insert = (state: string, count: number, signer: string | null, firstNonce: number) =>
    ds.query(
      `INSERT INTO settlement.settlements (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address,
         payed_amount, payer_account_holder_name, token_base_units, state, signer_address, nonce, raw_tx, tx_hash)
       SELECT gen_random_uuid(), $1, gen_random_uuid(), 'RF18', '0x01', 1, 'J', 1000000, $2, $3,
              CASE WHEN $3::text IS NULL THEN NULL ELSE $4::bigint + i END,
              CASE WHEN $3::text IS NULL THEN NULL ELSE '0xraw' END,
              CASE WHEN $3::text IS NULL THEN NULL ELSE '0x' || md5(random()::text) END
       FROM generate_series(0, $5::int - 1) AS i`,
      [randomUUID(), state, signer, firstNonce, count],
    );

  // settlements rows this call read, through any index or a scan, in its own transaction
  const rowsRead = async <T>(call: (m: EntityManager) => Promise<T>): Promise<{ read: number; result: T }> =>
    ds.transaction(async (m) => {
      const read = async (): Promise<number> =>
        (
          await m.query(
            `SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS read
             FROM pg_stat_xact_user_tables WHERE schemaname = $1 AND relname = 'settlements'`,
            [SETTLEMENT_SCHEMA],
          )
        )[0].read as number;
      const before = await read();
      const result = await call(m);
      return { read: (await read()) - before, result };
    });

  // the signer's settlements in flight, as the calls must find them
  const inFlight = async (): Promise<number[]> =>
    (
      await ds.query(
        `SELECT nonce::int AS n FROM settlement.settlements
         WHERE signer_address = $1 AND state IN ('SIGNED', 'BROADCAST') ORDER BY nonce`,
        [SIGNER],
      )
    ).map((r: { n: number }) => r.n);

  // Eight calls of each, past the fifth (when Postgres may keep a generic plan), each reading no more
  // rows than the signer has in flight (a table of five rows is read whole, rightly: not checked).
  const expectOnlyInFlightRead = async (tableIsTiny = false): Promise<void> => {
    const expected = await inFlight();
    for (let pass = 0; pass < 8; pass++) {
      const look = await rowsRead((m) => lockInFlightWithTransactions(m, SIGNER, 100));
      expect(look.result.rows.map((r) => Number(r.nonce))).toEqual(expected);
      if (!tableIsTiny) expect(look.read).toBeLessThanOrEqual(expected.length);
      const commitments = await rowsRead((m) => walletCommitments(m, SIGNER, 60_000));
      expect(commitments.result.inFlight.count).toBe(BigInt(expected.length));
      if (!tableIsTiny) expect(commitments.read).toBeLessThanOrEqual(expected.length);
    }
  };

  beforeAll(async () => {
    ds = await openPlanTestDataSource(); // one connection, autovacuum off: plans made on a handful of rows
    await insert('CONFIRMED', 2, SIGNER, 0);
    await insert('BROADCAST', 2, SIGNER, 2);
    await insert('PENDING', 1, null, 0);
    await ds.query('VACUUM (ANALYZE) settlement.settlements');
  });
  afterAll(async () => ds?.destroy());

  it('reads only them with the plans made on a new deployment, after the table has grown', async () => {
    await expectOnlyInFlightRead(true); // planned here, on five rows
    await insert('CONFIRMED', 3000, SIGNER, 4); // the signer's history
    await insert('CONFIRMED', 1000, OTHER_SIGNER, 0);
    await insert('BROADCAST', IN_FLIGHT, SIGNER, 3004);
    await insert('SIGNED', 4, SIGNER, 3004 + IN_FLIGHT);
    await insert('BROADCAST', IN_FLIGHT, OTHER_SIGNER, 1000);
    await insert('PENDING', 2000, null, 0); // a drain's backlog, no signer yet
    await expectOnlyInFlightRead();
  });

  it('reads only them once the statistics know the table', async () => {
    await ds.query('VACUUM (ANALYZE) settlement.settlements');
    await expectOnlyInFlightRead();
  });
});
