import { randomUUID } from 'node:crypto';

import { DataSource } from 'typeorm';

import { openServiceDataSource } from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { PAYMENTS_SCHEMA } from '../config';
import { SERVICE_DATABASE } from '../database';
import { NewOpenReference, OpenReferencesRepository } from './open-references.repository';

// A run of order.created events opens its references in one statement, a run of order.completed
// closes them in one: each outcome must be what the same events would have found one after another.
describe('open references: a run of order.created or order.completed in one statement (integration, real Postgres)', () => {
  let ds: DataSource;
  const repo = new OpenReferencesRepository();
  const merchant = randomUUID();
  let n = 0;
  const ref = (over: Partial<NewOpenReference> = {}): NewOpenReference => ({
    reference: `RF${String(10 + (n++ % 89)).padStart(2, '0')}RUN${randomUUID().slice(0, 8).toUpperCase()}`,
    orderUuid: randomUUID(),
    merchantId: merchant,
    amount: '100.50',
    currency: 'EUR',
    recipientAddress: '0x' + 'ab'.repeat(20),
    createdAt: new Date('2026-11-29T12:00:00Z'),
    kycUserUuid: randomUUID(),
    ...over,
  });
  const rowOf = async (reference: string) =>
    (
      await ds.query(
        `SELECT order_uuid AS "orderUuid", amount, status, created_at AS "createdAt"
           FROM payments.open_references WHERE reference = $1`,
        [reference],
      )
    )[0];

  beforeAll(async () => {
    ds = await openServiceDataSource({
      url: await createDatabase(loadInfraConfig().databaseUrl as string),
      schema: PAYMENTS_SCHEMA,
      entities: [],
      migrations: SERVICE_DATABASE.migrations as Array<new () => object> as never,
    });
  });
  afterAll(async () => ds?.destroy());

  it('opens each free reference, tells a waiting credit and a taken reference, in the order given', async () => {
    const fresh = ref();
    const waited = ref();
    const taken = ref();
    const twice = ref();
    const twiceOther = { ...ref(), reference: twice.reference };
    await repo.insertOpenProbingCredits(ds.manager, { ...taken, orderUuid: randomUUID() });
    await ds.query(
      `INSERT INTO payments.bank_transactions (id, merchant_id, candidate_references, amount, currency, payer_name,
         status, match_status)
       VALUES ($1, $2, ARRAY[$3], 100.50, 'EUR', 'J. Doe', 'BOOKED', 'UNMATCHED')`,
      [randomUUID(), merchant, waited.reference],
    );
    const outcomes = await ds.transaction((m) =>
      repo.insertManyOpenProbingCredits(m, [fresh, waited, taken, twice, twiceOther, twice]),
    );
    expect(outcomes).toEqual(['opened', 'credit-waiting', 'taken', 'opened', 'taken', 'taken']);
    expect(await rowOf(fresh.reference)).toEqual({
      orderUuid: fresh.orderUuid,
      amount: '100.50',
      status: 'OPEN',
      createdAt: fresh.createdAt,
    });
    expect((await rowOf(waited.reference)).orderUuid).toBe(waited.orderUuid);
    expect((await rowOf(taken.reference)).orderUuid).not.toBe(taken.orderUuid);
    expect((await rowOf(twice.reference)).orderUuid).toBe(twice.orderUuid);
  });

  // Over arrays, Postgres planned the statement again at every call (0.44 ms of planning against
  // 0.27 ms of execution in P1, docs/performance-journal.md): it runs with its generic plan, planned once per
  // connection.
  it('is planned once per connection, however many runs it opens', async () => {
    const one = await openServiceDataSource({
      url: (ds.options as { url: string }).url,
      schema: PAYMENTS_SCHEMA,
      entities: [],
      migrations: [],
      poolSize: 1,
    });
    try {
      for (let i = 0; i < 8; i++) {
        await one.transaction((m) => repo.insertManyOpenProbingCredits(m, [ref(), ref(), ref()]));
      }
      const [plans] = await one.query(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
         WHERE statement LIKE 'WITH input AS (%' AND statement LIKE '%open_references%'`,
      );
      expect(plans).toEqual({ generic: 8, custom: 0 });
    } finally {
      await one.destroy();
    }
  });

  // A run of order.completed closes its references in one statement: each outcome, and each row, as
  // closeForOrder one after another would have left them.
  it('closes a run of finished orders as one close after another would', async () => {
    const open = ref();
    const expired = ref();
    const unknown = ref(); // order.completed overtook its order.created
    const clash = ref(); // a reference another order holds
    const racing = ref(); // two new rows of one reference in the run: the first wins
    const racingOther = { ...ref(), reference: racing.reference };
    for (const r of [open, expired, clash]) await repo.insertOpenProbingCredits(ds.manager, r);
    await ds.query(`UPDATE payments.open_references SET status = 'EXPIRED' WHERE reference = $1`, [
      expired.reference,
    ]);
    const clashing = { ...clash, orderUuid: randomUUID() };
    const outcomes = await ds.transaction((m) =>
      repo.closeManyForOrders(m, [open, expired, unknown, clashing, racing, racingOther, open], new Date()),
    );
    // the second entry of `open` is left to its own handler
    expect(outcomes).toEqual(['closed', 'closed', 'inserted', 'taken', 'inserted', 'taken', undefined]);
    expect((await rowOf(open.reference)).status).toBe('CLOSED');
    expect((await rowOf(expired.reference)).status).toBe('EXPIRED');
    expect(await rowOf(unknown.reference)).toMatchObject({ orderUuid: unknown.orderUuid, status: 'CLOSED' });
    expect(await rowOf(clash.reference)).toMatchObject({ orderUuid: clash.orderUuid, status: 'OPEN' });
    expect((await rowOf(racing.reference)).orderUuid).toBe(racing.orderUuid);
    // one by one, the same entries answer the same
    expect(await repo.closeForOrder(ds.manager, open, new Date())).toBe('closed');
    expect(await repo.closeForOrder(ds.manager, racingOther, new Date())).toBe('taken');
  });

  it('answers one event alone as the run would', async () => {
    const alone = ref();
    expect(await repo.insertOpenProbingCredits(ds.manager, alone)).toBe('opened');
    expect(await repo.insertOpenProbingCredits(ds.manager, alone)).toBe('taken');
  });
});
