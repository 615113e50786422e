import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { openServiceDataSource } from './data-source';
import { writeWithNextStatement } from './write-with-next-statement';

const SCHEMA = 'deferwrite';
const ROWS = `"${SCHEMA}"."rows"`;

class InitDeferWrite1700000000000 implements MigrationInterface {
  name = 'InitDeferWrite1700000000000';
  async up(qr: QueryRunner): Promise<void> {
    await qr.query(`CREATE TABLE ${ROWS} (id INT PRIMARY KEY, label TEXT, tags TEXT[], at TIMESTAMPTZ)`);
  }
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
  }
}

// On real Postgres: a write held back for the next statement or the COMMIT is part of its
// transaction exactly as if it had been sent at once.
describe('writes sent with the next statement (integration, real Postgres)', () => {
  let ds: DataSource;
  const servers = loadInfraConfig();
  const rows = async (): Promise<Array<{ id: number; label: string; tags: string[]; at: Date }>> =>
    ds.query(`SELECT id, label, tags, at FROM ${ROWS} ORDER BY id`);
  const insert = (id: number, label: string | null, tags: string[] = [], at = new Date(0)) => ({
    sql: `INSERT INTO ${ROWS} (id, label, tags, at) VALUES ($1, $2, $3::text[], $4)`,
    params: [id, label, tags, at] as [number, string | null, string[], Date],
  });

  beforeAll(async () => {
    ds = await openServiceDataSource({
      url: await createDatabase(servers.databaseUrl as string),
      schema: SCHEMA,
      entities: [],
      migrations: [InitDeferWrite1700000000000],
    });
  });
  afterAll(async () => ds?.destroy());
  beforeEach(async () => {
    await ds.query(`DELETE FROM ${ROWS}`);
  });

  it('goes out with the COMMIT when it is the last write, its values as the server reads them', async () => {
    const at = new Date('2026-11-29T15:04:05.678Z');
    const tags = ['a,b', 'quote "q"', 'back\\slash', '{brace}'];
    await ds.transaction(async (manager) => {
      await manager.query(`INSERT INTO ${ROWS} (id) VALUES (1)`);
      const query = jest.spyOn(manager.queryRunner!, 'query');
      const { sql, params } = insert(2, 'two', tags, at);
      await writeWithNextStatement(manager, sql, params);
      expect(query).not.toHaveBeenCalled(); // held back
    });
    expect(await rows()).toEqual([
      { id: 1, label: null, tags: null, at: null },
      { id: 2, label: 'two', tags, at },
    ]);
  });

  it('goes out in front of the next statement, which sees it', async () => {
    let seen: number | undefined;
    await ds.transaction(async (manager) => {
      const { sql, params } = insert(3, null);
      await writeWithNextStatement(manager, sql, params);
      const [row] = await manager.query(`SELECT count(*)::int AS n FROM ${ROWS} WHERE label IS NULL`);
      seen = row.n;
    });
    expect(seen).toBe(1);
  });

  it('fails the COMMIT it travels with, and nothing of the transaction stays', async () => {
    await ds.query(`INSERT INTO ${ROWS} (id) VALUES (4)`);
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO ${ROWS} (id) VALUES (5)`);
        const { sql, params } = insert(4, 'again'); // a duplicate key
        await writeWithNextStatement(manager, sql, params);
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await rows()).map((r) => r.id)).toEqual([4]);
    // the connection serves the next transaction
    await ds.transaction((manager) => manager.query(`INSERT INTO ${ROWS} (id) VALUES (6)`));
    expect((await rows()).map((r) => r.id)).toEqual([4, 6]);
  });

  it('is dropped by a rollback', async () => {
    await expect(
      ds.transaction(async (manager) => {
        await manager.query(`INSERT INTO ${ROWS} (id) VALUES (7)`);
        const { sql, params } = insert(8, 'eight');
        await writeWithNextStatement(manager, sql, params);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await rows()).toEqual([]);
  });

  it('runs at once outside a transaction', async () => {
    const { sql, params } = insert(9, 'nine', ['x']);
    await writeWithNextStatement(ds.manager, sql, params);
    expect((await rows()).map((r) => [r.id, r.tags])).toEqual([[9, ['x']]]);
  });
});
