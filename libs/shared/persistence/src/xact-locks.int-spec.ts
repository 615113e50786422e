import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { openServiceDataSource } from './data-source';
import { noteXactLocksHeld, takeXactLocks, XactLock, xactLocksQuery } from './xact-locks';

// On real Postgres: each form takes the very lock its takers took before it existed (the SQL on the
// right), exclusive or shared, and a lock the transaction holds already costs no statement.
describe('transaction-scoped advisory locks (integration, real Postgres)', () => {
  let ds: DataSource;
  let other: Client; // a second session: can it take the same lock?
  const servers = loadInfraConfig();

  beforeAll(async () => {
    const url = await createDatabase(servers.databaseUrl as string);
    ds = await openServiceDataSource({ url, schema: 'xactlocks', entities: [], migrations: [] });
    other = new Client({ connectionString: url });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    await ds?.destroy();
  });

  // Whether the other session can take the lock the old SQL names, without waiting.
  const othersCanTake = async (tryLock: string, params: unknown[]): Promise<boolean> => {
    await other.query('BEGIN');
    try {
      const { rows } = await other.query(`SELECT ${tryLock} AS got`, params);
      return rows[0].got as boolean;
    } finally {
      await other.query('ROLLBACK');
    }
  };

  const forms: Array<[string, XactLock, string, unknown[]]> = [
    [
      'text-pair (payments references)',
      { form: 'text-pair', space: 'payments.reference', name: 'RF18539007547034' },
      `pg_try_advisory_xact_lock(hashtext('payments.reference'), hashtext($1))`,
      ['RF18539007547034'],
    ],
    [
      'text-extended (settlement payments)',
      { form: 'text-extended', name: 'settlement.payment:0190c5a0-0000-7000-8000-000000000001' },
      `pg_try_advisory_xact_lock(hashtextextended('settlement.payment:' || $1, 0))`,
      ['0190c5a0-0000-7000-8000-000000000001'],
    ],
    [
      'text (webhook merchants)',
      { form: 'text', name: 'webhooks:merchant:m-1' },
      `pg_try_advisory_xact_lock(hashtext($1))`,
      ['webhooks:merchant:m-1'],
    ],
  ];

  it.each(forms)(
    '%s: takes the lock its old SQL named, until the transaction ends',
    async (_, lock, sql, params) => {
      let whileHeld: boolean | undefined;
      await ds.transaction(async (manager) => {
        await takeXactLocks(manager, [lock]);
        whileHeld = await othersCanTake(sql, params);
      });
      expect(whileHeld).toBe(false);
      expect(await othersCanTake(sql, params)).toBe(true);
    },
  );

  it('a shared lock lets other shared holders in and keeps an exclusive taker out', async () => {
    const lock: XactLock = { form: 'text', name: 'webhooks:merchant:m-2', shared: true };
    const seen: boolean[] = [];
    await ds.transaction(async (manager) => {
      await takeXactLocks(manager, [lock]);
      seen.push(await othersCanTake('pg_try_advisory_xact_lock_shared(hashtext($1))', [lock.name]));
      seen.push(await othersCanTake('pg_try_advisory_xact_lock(hashtext($1))', [lock.name]));
    });
    expect(seen).toEqual([true, false]);
  });

  it('takes several locks in one statement, an exclusive request covering a shared one of the same key', async () => {
    const a: XactLock = { form: 'text-pair', space: 'payments.reference', name: 'B' };
    const b: XactLock = { form: 'text-pair', space: 'payments.reference', name: 'A' };
    const query = xactLocksQuery([a, b, { ...a, shared: true }, b]);
    expect(query.params).toEqual([
      ['text-pair', 'text-pair'],
      ['payments.reference', 'payments.reference'],
      ['A', 'B'],
    ]);
    const statements = await ds.transaction(async (manager) => {
      const query = jest.spyOn(manager, 'query');
      await takeXactLocks(manager, [a, b]);
      const exclusive = await othersCanTake(
        `pg_try_advisory_xact_lock_shared(hashtext('payments.reference'), hashtext('B'))`,
        [],
      );
      expect(exclusive).toBe(false);
      return query.mock.calls.length;
    });
    expect(statements).toBe(1);
  });

  it('sends nothing for locks the transaction is known to hold, and takes the ones it does not', async () => {
    const held: XactLock = { form: 'text', name: 'held' };
    const shared: XactLock = { form: 'text', name: 'shared-only', shared: true };
    const calls = await ds.transaction(async (manager) => {
      await manager.query(
        `SELECT pg_advisory_xact_lock(hashtext('held')), pg_advisory_xact_lock_shared(hashtext('shared-only'))`,
      );
      noteXactLocksHeld(manager, [held, shared]);
      const query = jest.spyOn(manager, 'query');
      await takeXactLocks(manager, [held, { ...held, shared: true }, shared]); // all held
      const none = query.mock.calls.length;
      await takeXactLocks(manager, [{ form: 'text', name: 'shared-only' }]); // exclusive: not held yet
      expect(await othersCanTake(`pg_try_advisory_xact_lock_shared(hashtext('shared-only'))`, [])).toBe(
        false,
      );
      return [none, query.mock.calls.length];
    });
    expect(calls).toEqual([0, 1]);
    // another transaction on the same pool knows nothing of the first one's locks
    await ds.transaction(async (manager) => {
      const query = jest.spyOn(manager, 'query');
      await takeXactLocks(manager, [held]);
      expect(query).toHaveBeenCalledTimes(1);
    });
  });
});
