import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { ensureSchema, serviceDataSourceOptions } from '@onramp/persistence';
import {
  CreateSettlementTables1763800100000,
  CreateSettlementTransactions1763800200000,
  SETTLEMENT_SCHEMA,
} from '@onramp/settlement-feature';

import { freshDatabase } from '../testing/chain-settlement-test-app';

// The migration is reversible, and a database upgraded with transfers in flight keeps their
// hashes: the worker looks receipts up in settlement_transactions only.
describe('migration CreateSettlementTransactions1763800200000 (integration)', () => {
  let ds: DataSource;

  const open = async (url: string, migrations: Array<new () => object>) => {
    const d = new DataSource(
      serviceDataSourceOptions({ url, schema: SETTLEMENT_SCHEMA, entities: [], migrations }),
    );
    await d.initialize();
    return d;
  };

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
  });

  it('copies the transactions of settlements signed before it, and goes down and up again', async () => {
    const url = await freshDatabase();
    await ensureSchema(url, SETTLEMENT_SCHEMA);
    const before = await open(url, [CreateSettlementTables1763800100000]);
    await before.runMigrations();
    const [signed, pending] = [randomUUID(), randomUUID()];
    await before.query(
      `INSERT INTO settlement.settlements (order_uuid, merchant_id, bank_transaction_id, reference, recipient_address,
         payed_amount, payer_account_holder_name, token_base_units, state, signer_address, nonce, raw_tx, tx_hash, broadcast_at)
       VALUES ($1, $3, $3, 'RF18', '0x01', 1, 'J', 1, 'BROADCAST', '0xabc', 7, '0xraw', '0xhash', now()),
              ($2, $3, $3, 'RF18', '0x01', 1, 'J', NULL, 'PENDING', NULL, NULL, NULL, NULL, NULL)`,
      [signed, pending, randomUUID()],
    );
    await before.destroy();

    ds = await open(url, [CreateSettlementTables1763800100000, CreateSettlementTransactions1763800200000]);
    await ds.runMigrations();
    const copied = await ds.query(
      `SELECT order_uuid, signer_address, nonce::text, raw_tx, tx_hash, first_sent_at IS NOT NULL AS sent
       FROM settlement.settlement_transactions`,
    );
    expect(copied).toEqual([
      {
        order_uuid: signed,
        signer_address: '0xabc',
        nonce: '7',
        raw_tx: '0xraw',
        tx_hash: '0xhash',
        sent: true,
      },
    ]);

    await ds.undoLastMigration();
    const [{ present }] = await ds.query(
      `SELECT to_regclass('settlement.settlement_transactions') IS NOT NULL AS present`,
    );
    expect(present).toBe(false);
    await ds.runMigrations();
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM settlement.settlement_transactions`);
    expect(n).toBe(1);
  });
});
