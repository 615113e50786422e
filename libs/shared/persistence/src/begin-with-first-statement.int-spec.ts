import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { beforeNextStatement } from './begin-with-first-statement';
import { openServiceDataSource } from './data-source';
import { writeWithNextStatement } from './write-with-next-statement';
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

  // One query runner is one connection: what it prepared stays prepared for its next transactions.
  describe('a statement with parameters held back', () => {
    const write = (tag: string) =>
      `INSERT INTO "${SCHEMA}"."rows" SELECT $1::int WHERE $2::text IS NOT NULL -- ${tag}`;
    const preparedCount = async (qr: QueryRunner, text: string): Promise<number> =>
      Number(
        (
          await qr.query(`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [text])
        )[0].n,
      );
    const inTransaction = async <T>(qr: QueryRunner, work: () => Promise<T>): Promise<T> => {
      await qr.startTransaction();
      try {
        const result = await work();
        await qr.commitTransaction();
        return result;
      } catch (err) {
        await qr.rollbackTransaction();
        throw err;
      }
    };
    let qr: QueryRunner;
    beforeEach(async () => {
      qr = ds.createQueryRunner();
      await qr.connect();
    });
    afterEach(async () => {
      await qr.release();
    });

    it('is prepared once on its connection, and runs at each use', async () => {
      const text = write('once');
      for (const id of [40, 41, 42]) {
        const prepared = await inTransaction(qr, async () => {
          await writeWithNextStatement(qr.manager, text, [id, 'x']);
          return preparedCount(qr, text); // the write went out ahead of this count
        });
        expect(prepared).toBe(1);
      }
      expect(await count()).toBe(3);
    });

    it('is prepared afresh after a query that failed where it was first parsed', async () => {
      const text = write('fails');
      await inTransaction(qr, () => writeWithNextStatement(qr.manager, text, [43, 'x']).then(() => count()));
      await inTransaction(qr, async () => {
        await writeWithNextStatement(qr.manager, text, [43, 'x']); // prepared: fails at execution
        return count();
      }).catch((err: Error) => expect(err.message).toMatch(/duplicate key/));
      // a new text whose first use fails after it was parsed, then a text the server cannot parse
      const fresh = write('fresh');
      await expect(
        inTransaction(qr, async () => {
          await writeWithNextStatement(qr.manager, fresh, [43, 'x']);
          return count();
        }),
      ).rejects.toThrow(/duplicate key/);
      await expect(
        inTransaction(qr, async () => {
          await writeWithNextStatement(qr.manager, 'SELEC $1::int', [1]);
          return count();
        }),
      ).rejects.toThrow(/syntax error/);
      // the connection goes on: every text runs again, the failed ones under new names
      for (const [t, id] of [
        [text, 44],
        [fresh, 45],
        [fresh, 46],
      ] as const) {
        await inTransaction(qr, async () => {
          await writeWithNextStatement(qr.manager, t, [id, 'x']);
          return count();
        });
      }
      expect(await count()).toBe(4);
      expect(await preparedCount(qr, text)).toBe(1);
    });

    it('is prepared afresh when a migration changed its result under it', async () => {
      await other.query(`CREATE TABLE "${SCHEMA}"."changing" (id INT PRIMARY KEY)`);
      try {
        const text = `SELECT t.* FROM "${SCHEMA}"."changing" t WHERE $1::text IS NOT NULL`;
        const run = () =>
          inTransaction(qr, async () => {
            expect(beforeNextStatement(qr, { text, values: ['x'] })).toBe(true);
            return count();
          });
        await run();
        await other.query(`ALTER TABLE "${SCHEMA}"."changing" ADD COLUMN note TEXT`);
        await expect(run()).rejects.toThrow(/cached plan must not change result type/);
        await run();
        await run();
      } finally {
        await other.query(`DROP TABLE "${SCHEMA}"."changing"`);
      }
    });
  });
});
