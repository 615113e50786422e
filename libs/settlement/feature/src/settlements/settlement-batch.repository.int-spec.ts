import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SETTLEMENT_SCHEMA } from '../config';
import { SERVICE_DATABASE } from '../database';
import { markSentAndBroadcast, storeSigned } from './settlement-batch.repository';

const FEES = { maxFeePerGas: 2n, maxPriorityFeePerGas: 1n };
const SIGNER = '0x00000000000000000000000000000000000000a1';

// These writes travel with the transaction's next statement or its COMMIT, so their check that every
// settlement moved is in their own SQL: a short count fails the transaction, as it did in the caller.
describe('settlement batch writes (integration, real Postgres)', () => {
  let ds: DataSource;
  const state = async (orderUuid: string): Promise<string> =>
    (await ds.query(`SELECT state FROM settlement.settlements WHERE order_uuid = $1`, [orderUuid]))[0].state;
  const pending = async (): Promise<string> => {
    const orderUuid = randomUUID();
    await ds.query(
      `INSERT INTO settlement.settlements (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address,
         payed_amount, payer_account_holder_name, token_base_units, state)
       VALUES ($1, $2, $2, 'RF18', '0x01', 1, 'J', 1000000, 'PENDING')`,
      [orderUuid, randomUUID()],
    );
    return orderUuid;
  };
  const signed = (orderUuid: string, from: 'PENDING' | 'HELD', nonce: bigint) => ({
    orderUuid,
    from,
    nonce,
    rawTx: `0xraw${nonce}`,
    txHash: `0xhash${randomUUID()}`,
  });

  beforeAll(async () => {
    ds = await openServiceDataSource({
      url: await createDatabase(loadInfraConfig().databaseUrl as string),
      schema: SETTLEMENT_SCHEMA,
      entities: [],
      migrations: SERVICE_DATABASE.migrations as Array<new () => object> as never,
    });
    await ds.query(`INSERT INTO settlement.signers (address, chain_id, next_nonce) VALUES ($1, 31337, 0)`, [
      SIGNER,
    ]);
  });
  afterAll(async () => ds?.destroy());

  it('signs and marks broadcast every settlement of a batch, with the COMMIT', async () => {
    const a = await pending();
    const b = await pending();
    const rows = [signed(a, 'PENDING', 0n), signed(b, 'PENDING', 1n)];
    await ds.transaction((m) => storeSigned(m, { address: SIGNER, nextNonce: 2n }, FEES, rows, new Date()));
    expect([await state(a), await state(b)]).toEqual(['SIGNED', 'SIGNED']);
    await ds.transaction((m) => markSentAndBroadcast(m, rows));
    expect([await state(a), await state(b)]).toEqual(['BROADCAST', 'BROADCAST']);
  });

  it('fails the whole transaction when a settlement was not in the state its lock showed', async () => {
    const a = await pending();
    const b = await pending();
    const rows = [signed(a, 'PENDING', 2n), signed(b, 'HELD', 3n)]; // b is PENDING, not HELD
    await expect(
      ds.transaction((m) => storeSigned(m, { address: SIGNER, nextNonce: 4n }, FEES, rows, new Date())),
    ).rejects.toThrow(/signed 1 of 2 settlements: a row was not in the state its lock showed/);
    expect([await state(a), await state(b)]).toEqual(['PENDING', 'PENDING']);
    const [signer] = await ds.query(`SELECT next_nonce FROM settlement.signers WHERE address = $1`, [SIGNER]);
    expect(String(signer.next_nonce)).toBe('2');
    await expect(ds.transaction((m) => markSentAndBroadcast(m, [rows[0] as never]))).rejects.toThrow(
      /marked broadcast 0 of 1 settlements/,
    );
  });

  // Over the batch's arrays Postgres planned the signing batch's write again at every pass (P2,
  // docs/performance-journal.md): it runs with its generic plan, planned once per connection.
  it("plans the signing batch's write and the broadcast mark once per connection", async () => {
    const one = await openServiceDataSource({
      url: (ds.options as { url: string }).url,
      schema: SETTLEMENT_SCHEMA,
      entities: [],
      migrations: [],
      poolSize: 1, // prepared statements are the connection's
    });
    try {
      const [{ next_nonce: from }] = await one.query(
        `SELECT next_nonce FROM settlement.signers WHERE address = $1`,
        [SIGNER],
      );
      for (let i = 0n; i < 8n; i++) {
        const nonce = BigInt(from) + 2n * i;
        const rows = [
          signed(await pending(), 'PENDING', nonce),
          signed(await pending(), 'PENDING', nonce + 1n),
        ];
        await one.transaction((m) =>
          storeSigned(m, { address: SIGNER, nextNonce: nonce + 2n }, FEES, rows, new Date()),
        );
        await one.transaction((m) => markSentAndBroadcast(m, rows));
      }
      const plans = await one.query(
        `SELECT left(statement, 11) AS statement, generic_plans::int AS generic, custom_plans::int AS custom
         FROM pg_prepared_statements
         WHERE (statement LIKE 'WITH u AS (%' AND statement LIKE '%signed_totals%') OR statement LIKE 'WITH marked%'
         ORDER BY statement`,
      );
      expect(plans).toEqual([
        { statement: 'WITH marked', generic: 8, custom: 0 },
        { statement: 'WITH u AS (', generic: 8, custom: 0 },
      ]);
    } finally {
      await one.destroy();
    }
  });
});
