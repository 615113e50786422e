import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { beforeNextStatement } from './begin-with-first-statement';
import { openServiceDataSource } from './data-source';
import { PreparingClient } from './prepared-statements';

const SCHEMA = 'preparetest';

class InitPrepareTest1700000000000 implements MigrationInterface {
  name = 'InitPrepareTest1700000000000';
  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`CREATE TABLE "${SCHEMA}"."rows" (id INT PRIMARY KEY)`);
  }
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
  }
}

const INSERT = `INSERT INTO "${SCHEMA}"."rows" VALUES ($1)`;
const PREPARED = `SELECT statement FROM pg_prepared_statements WHERE statement = $1`;

// On real Postgres: a statement a connection sends again is prepared on it once, in a plain query,
// as the first statement of a transaction (BEGIN in front of it) and behind a lock sent with it.
describe('prepared statements (integration, real Postgres)', () => {
  let url: string;
  const servers = loadInfraConfig();

  beforeAll(async () => {
    url = await createDatabase(servers.databaseUrl as string);
  });

  describe('a PreparingClient', () => {
    let client: Client; // pg's own type: a PreparingClient is used as any Client is
    beforeAll(async () => {
      client = new PreparingClient({ connectionString: url });
      await client.connect();
      await client.query(`CREATE TABLE IF NOT EXISTS prep_plain (id INT PRIMARY KEY)`);
    });
    afterAll(() => client?.end());

    it('prepares a statement with parameters once and runs it with each call`s values', async () => {
      const text = `SELECT $1::int + 1 AS n`;
      const first = await client.query(text, [1]);
      const second = await client.query(text, [41]);
      expect([first.rows[0].n, second.rows[0].n]).toEqual([2, 42]);
      const { rows } = await client.query(PREPARED, [text]);
      expect(rows).toHaveLength(1);
    });

    it('sends a statement without parameters as it is (not prepared)', async () => {
      await client.query(`SELECT 1 AS one`);
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = 'SELECT 1 AS one'`,
      );
      expect(rows[0].n).toBe(0);
    });

    it('keeps a prepared statement across a failed call (a constraint violation)', async () => {
      const text = `INSERT INTO prep_plain VALUES ($1)`;
      await client.query(text, [1]);
      await expect(client.query(text, [1])).rejects.toThrow(/duplicate key/);
      await client.query(text, [2]);
      expect((await client.query(`SELECT count(*)::int AS n FROM prep_plain`)).rows[0].n).toBe(2);
    });
  });

  it('prepares afresh a statement whose result a migration changed under it', async () => {
    const client: Client = new PreparingClient({ connectionString: url });
    const migrator = new Client({ connectionString: url });
    await Promise.all([client.connect(), migrator.connect()]);
    try {
      await migrator.query(`CREATE TABLE prep_changing (id INT PRIMARY KEY)`);
      await migrator.query(`INSERT INTO prep_changing VALUES (1)`);
      const text = `SELECT t.* FROM prep_changing t WHERE id >= $1`;
      expect((await client.query(text, [0])).rows).toEqual([{ id: 1 }]);
      await migrator.query(`ALTER TABLE prep_changing ADD COLUMN note TEXT DEFAULT 'new'`);
      await expect(client.query(text, [0])).rejects.toThrow(/cached plan must not change result type/);
      expect((await client.query(text, [0])).rows).toEqual([{ id: 1, note: 'new' }]);
    } finally {
      await Promise.all([client.end(), migrator.end()]);
    }
  });

  describe('a service DataSource', () => {
    let ds: DataSource;
    let other: Client;
    beforeAll(async () => {
      ds = await openServiceDataSource({
        url,
        schema: SCHEMA,
        entities: [],
        migrations: [InitPrepareTest1700000000000],
        poolSize: 1, // one connection: every call below meets what the ones before it prepared
      });
      other = new Client({ connectionString: url });
      await other.connect();
    });
    afterAll(async () => {
      await other?.end();
      await ds?.destroy();
    });
    const count = async (): Promise<number> =>
      Number((await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."rows"`))[0].n);

    it('prepares the first statement of a transaction, sent with its BEGIN, and keeps the transaction whole', async () => {
      await ds.transaction((m) => m.query(INSERT, [1]));
      await expect(
        ds.transaction(async (m) => {
          await m.query(INSERT, [2]); // prepared already: only its name goes with the BEGIN
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await ds.transaction((m) => m.query(INSERT, [3]));
      expect(await count()).toBe(2);
      expect(await ds.query(PREPARED, [INSERT])).toHaveLength(1);
    });

    // pg counts a named statement as prepared at the first ParseComplete of its query. With a
    // prelude in front, that answer is the prelude's own: if the prelude then failed, pg would believe
    // in a statement the server never parsed, and every later call of it on this connection would fail.
    it('still runs a statement whose first sending failed on a prelude in front of it', async () => {
      const text = `SELECT count(*)::int AS n FROM "${SCHEMA}"."rows" WHERE id > $1`;
      await expect(
        ds.transaction(async (m) => {
          beforeNextStatement(m.queryRunner, { text: 'SELECT 1 WHERE 1 / $1::int > 1', values: ['0'] });
          await m.query(text, [0]);
        }),
      ).rejects.toThrow(/division by zero/);
      const [row] = await ds.transaction((m) => m.query(text, [0]));
      expect(row.n).toBe(await count());
    });

    it('waits behind a lock sent in front of a prepared statement, and sees what its holder committed', async () => {
      const text = `SELECT count(*)::int AS n FROM "${SCHEMA}"."rows" WHERE id >= $1`;
      await ds.query(text, [0]); // prepared before the lock goes in front of it
      await other.query('BEGIN');
      await other.query('SELECT pg_advisory_xact_lock(777)');
      const seen = ds.transaction(async (m) => {
        beforeNextStatement(m.queryRunner, {
          // no rows, as a prelude must, but the lock taken (a volatile call is never folded away)
          text: `SELECT 1 FROM (SELECT pg_advisory_xact_lock($1::bigint)::text AS t) AS l WHERE l.t = 'never'`,
          values: ['777'],
        });
        const [row] = await m.query(text, [0]);
        return row.n as number;
      });
      await new Promise((r) => setTimeout(r, 200));
      await other.query(`INSERT INTO "${SCHEMA}"."rows" VALUES (100)`);
      await other.query('COMMIT');
      expect(await seen).toBe(await count());
      expect(await seen).toBe(3);
    });
  });

  it('is off when the service says so: statements go out unnamed', async () => {
    const ds = await openServiceDataSource({
      url,
      schema: SCHEMA,
      entities: [],
      migrations: [InitPrepareTest1700000000000],
      poolSize: 1,
      preparedStatements: false,
    });
    try {
      const text = `SELECT $1::int AS n /* unprepared */`;
      await ds.query(text, [1]);
      await ds.query(text, [2]);
      expect(await ds.query(PREPARED, [text])).toHaveLength(0);
    } finally {
      await ds.destroy();
    }
  });
});
