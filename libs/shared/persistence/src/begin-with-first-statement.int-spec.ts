import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { beforeNextStatement } from './begin-with-first-statement';
import { openServiceDataSource } from './data-source';
import { takeXactLocksWithNextStatement, XactLock } from './xact-locks';

const SCHEMA = 'begintest';

class InitBeginTest1700000000000 implements MigrationInterface {
  name = 'InitBeginTest1700000000000';
  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`CREATE TABLE "${SCHEMA}"."rows" (id INT PRIMARY KEY)`);
  }
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
  }
}

// On real Postgres: a transaction whose BEGIN travels with its first statement is still one
// transaction from its first statement to its COMMIT or ROLLBACK, whatever that first statement is.
describe('transactions that begin with their first statement (integration, real Postgres)', () => {
  let ds: DataSource;
  let url: string;
  let other: Client; // a second session, to see what the first holds
  const servers = loadInfraConfig();
  const count = async (): Promise<number> =>
    Number((await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."rows"`))[0].n);

  beforeAll(async () => {
    url = await createDatabase(servers.databaseUrl as string);
    ds = await openServiceDataSource({
      url,
      schema: SCHEMA,
      entities: [],
      migrations: [InitBeginTest1700000000000],
    });
    other = new Client({ connectionString: url });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    await ds?.destroy();
  });

  beforeEach(async () => {
    await ds.query(`DELETE FROM "${SCHEMA}"."rows"`);
  });

  it('runs the first statement inside the transaction: a lock it takes is held until the commit', async () => {
    let heldInside: boolean | undefined;
    await ds.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(4242)');
      const { rows } = await other.query('SELECT pg_try_advisory_lock(4242) AS got');
      heldInside = !rows[0].got;
      await manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (1)`);
    });
    expect(heldInside).toBe(true);
    const { rows } = await other.query('SELECT pg_try_advisory_lock(4242) AS got');
    expect(rows[0].got).toBe(true);
    await other.query('SELECT pg_advisory_unlock(4242)');
    expect(await count()).toBe(1);
  });

  it('keeps every statement in one transaction, and gives back the first statement result', async () => {
    const ids = await ds.transaction(async (manager) => {
      const [first] = await manager.query('SELECT txid_current()::text AS id, 7 AS seven');
      const [second] = await manager.query('SELECT txid_current()::text AS id');
      expect(first.seven).toBe(7);
      return [first.id, second.id];
    });
    expect(ids[0]).toBe(ids[1]);
  });

  it('undoes the first statement when the transaction rolls back', async () => {
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES ($1)`, [2]);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count()).toBe(0);
  });

  it('rolls back a transaction whose first statement fails, and the connection serves the next one', async () => {
    await ds.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (3)`);
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES ($1)`, [3]); // duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`SELEC 1`); // syntax error, before anything ran
      }),
    ).rejects.toThrow(/syntax error/);
    for (let i = 0; i < 12; i++) {
      // more transactions than the pool has connections: each of them was given back clean
      await ds.transaction((manager) =>
        manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES ($1)`, [10 + i]),
      );
    }
    expect(await count()).toBe(13);
  });

  it('ends a transaction that sent nothing without leaving its connection inside one', async () => {
    await ds.transaction(async () => undefined);
    await expect(
      ds.transaction(async () => {
        throw new Error('nothing sent');
      }),
    ).rejects.toThrow('nothing sent');
    const runner = ds.createQueryRunner();
    try {
      await runner.startTransaction();
      await runner.commitTransaction();
      // outside a transaction, each statement has its own transaction id
      const [a] = await runner.query('SELECT txid_current()::text AS id');
      const [b] = await runner.query('SELECT txid_current()::text AS id');
      expect(a.id).not.toBe(b.id);
    } finally {
      await runner.release();
    }
  });

  it('still runs nested transactions as savepoints, and an isolation level as asked', async () => {
    await ds.transaction(async (manager) => {
      await manager.transaction(async (inner) => {
        await inner.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (20)`);
      });
      const [row] = await manager.query(`SELECT current_setting('transaction_isolation') AS level`);
      expect(row.level).toBe('read committed');
    });
    await ds.transaction('SERIALIZABLE', async (manager) => {
      const [row] = await manager.query(`SELECT current_setting('transaction_isolation') AS level`);
      expect(row.level).toBe('serializable');
    });
    expect(await count()).toBe(1);
  });

  describe('a lock sent with the next statement', () => {
    const lock: XactLock = { form: 'text-pair', space: 'begintest', name: 'k"1\\' }; // quotes and backslashes too
    const othersCanTake = async (): Promise<boolean> => {
      const { rows } = await other.query(
        `SELECT pg_try_advisory_xact_lock(hashtext('begintest'), hashtext($1)) AS got`,
        [lock.name],
      );
      return rows[0].got as boolean;
    };

    it('is taken with the next statement, which sees what the lock holder committed meanwhile', async () => {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('begintest'), hashtext($1))`, [lock.name]);
      let seen: number | undefined;
      const tx = ds.transaction(async (manager) => {
        const query = jest.spyOn(manager.queryRunner!, 'query');
        await takeXactLocksWithNextStatement(manager, [lock]);
        expect(query).not.toHaveBeenCalled(); // held back
        const [row] = await manager.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."rows"`);
        seen = row.n;
        expect(query).toHaveBeenCalledTimes(1);
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toBeUndefined(); // waiting for the lock, in the same round trip as the count
      await other.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (30)`);
      await other.query('COMMIT');
      await tx;
      expect(seen).toBe(1);
    });

    it('goes out with the COMMIT when no statement follows, and is waited for', async () => {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('begintest'), hashtext($1))`, [lock.name]);
      let committed = false;
      const tx = ds
        .transaction((manager) => takeXactLocksWithNextStatement(manager, [lock]))
        .then(() => (committed = true));
      await new Promise((r) => setTimeout(r, 200));
      expect(committed).toBe(false);
      await other.query('COMMIT');
      await tx;
      await other.query('BEGIN');
      expect(await othersCanTake()).toBe(true); // released with the commit
      await other.query('ROLLBACK');
    });

    it('is dropped by a rollback, and a failing held-back statement fails the next one and its transaction', async () => {
      await expect(
        ds.transaction(async (manager) => {
          await takeXactLocksWithNextStatement(manager, [lock]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await expect(
        ds.transaction(async (manager) => {
          expect(beforeNextStatement(manager.queryRunner, { text: 'SELEC 1', values: [] })).toBe(true);
          await manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (31)`);
        }),
      ).rejects.toThrow(/syntax error/);
      expect(await count()).toBe(0);
      // outside a transaction there is nothing to hold it back for
      expect(beforeNextStatement(ds.manager.queryRunner, { text: 'SELECT 1', values: [] })).toBe(false);
      await ds.transaction((manager) => manager.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (32)`));
      expect(await count()).toBe(1);
    });
  });
});
