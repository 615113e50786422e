import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { SERVICE_DATABASE } from '../database';
import { FxQuoteRow } from '../fx/fx-quotes.repository';
import {
  insertManyPendingUnlessReversed,
  insertPendingUnlessReversed,
  NewSettlement,
} from './settlement.repository';

// A run of payment.confirmed in one consumer batch creates its settlements in one statement: each
// answer, and each row, as the inserts one after another would have left them. One payout per order
// either way.
describe('settlements: a run of payment.confirmed in one statement (integration, real Postgres)', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = await openServiceDataSource({
      ...SERVICE_DATABASE,
      url: await createDatabase(loadInfraConfig().databaseUrl as string),
    });
  });
  afterAll(async () => ds?.destroy());

  const quote = {
    source: 'test',
    fxRateBase: '1.08',
    fxRateEffective: '1.0692',
    sentTokenAmount: '10.692',
    baseUnits: 10_692_000n,
    fxRateUpdatedAt: new Date('2026-12-01T03:00:00Z'),
  };
  const entry = (priced = true): { settlement: NewSettlement; fxAudit: FxQuoteRow | undefined } => {
    const orderUuid = randomUUID();
    return {
      settlement: {
        orderUuid,
        merchantId: randomUUID(),
        bankTransactionId: randomUUID(),
        reference: 'RF18RUN',
        recipientAddress: '0x' + 'ab'.repeat(20),
        payedAmount: '10.00',
        payerAccountHolderName: 'sealed',
        quote: priced ? quote : undefined,
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
      },
      fxAudit: priced ? { orderUuid, payedAmount: '10.00', fee: '0.01', quote } : undefined,
    };
  };
  const stored = async (orderUuid: string) =>
    (
      await ds.query(
        `SELECT s.state, s.token_base_units::text AS units, s.traceparent IS NOT NULL AS traced,
                (SELECT count(*)::int FROM settlement.fx_quotes q WHERE q.order_uuid = s.order_uuid) AS audits
         FROM settlement.settlements s WHERE s.order_uuid = $1`,
        [orderUuid],
      )
    )[0];

  it('inserts each order once, unless reversed, as one insert after another would', async () => {
    const [fresh, unpriced, reversed, existing] = [entry(), entry(false), entry(), entry()];
    await ds.query(
      `INSERT INTO settlement.payment_reversals (order_uuid, bank_transaction_id, amount, reason, outcome)
       VALUES ($1, gen_random_uuid(), 10, 'FR01', 'BEFORE_SETTLEMENT')`,
      [reversed.settlement.orderUuid],
    );
    await insertPendingUnlessReversed(ds.manager, existing.settlement, existing.fxAudit);
    const second = { ...entry(), settlement: { ...fresh.settlement, bankTransactionId: randomUUID() } };

    const outcomes = await ds.transaction((m) =>
      insertManyPendingUnlessReversed(m, [fresh, unpriced, reversed, existing, second]),
    );
    expect(outcomes).toEqual([
      { inserted: true },
      { inserted: true },
      { reversal: { outcome: 'BEFORE_SETTLEMENT', reason: 'FR01' }, inserted: false },
      { inserted: false },
      undefined, // a second confirmation of `fresh`: left to its handler
    ]);
    expect(await stored(fresh.settlement.orderUuid)).toEqual({
      state: 'PENDING',
      units: '10692000',
      traced: true,
      audits: 1,
    });
    expect(await stored(unpriced.settlement.orderUuid)).toMatchObject({ units: null, audits: 0 });
    expect(await stored(reversed.settlement.orderUuid)).toBeUndefined();
    expect(await stored(existing.settlement.orderUuid)).toMatchObject({ audits: 1 });
    // alone afterwards, the second confirmation finds the first one's settlement
    expect(await insertPendingUnlessReversed(ds.manager, second.settlement, second.fxAudit)).toEqual({
      inserted: false,
    });
    expect(await stored(fresh.settlement.orderUuid)).toMatchObject({ audits: 1 });
  });
});
