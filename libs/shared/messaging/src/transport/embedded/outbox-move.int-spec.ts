import { randomUUID } from 'node:crypto';

import { Client, Pool, PoolClient } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import {
  createMessagingTables,
  dropMessagingTables,
  openServiceDataSource,
  outboxDeleteOnPublishMigration,
  outboxKeyHashMigration,
  PreparingClient,
} from '@onramp/persistence';
import { createDatabase, loadInfraConfig } from '@onramp/platform-infra';

import { relayLockKey } from '../event-transport';
import { keyHash, partitionFor } from '../murmur2-partitioner';
import { ensureEventbusSchema, EVENTBUS_SCHEMA } from './eventbus-schema';
import { moveOutboxRows } from './outbox-move';

const SCHEMA = 'movedirect';
const PARTITIONS = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class InitMoveDirect1700000000000 implements MigrationInterface {
  name = 'InitMoveDirect1700000000000';
  up = (qr: QueryRunner) => createMessagingTables(qr, SCHEMA);
  down = (qr: QueryRunner) => dropMessagingTables(qr, SCHEMA);
}

// The move on one connection of real Postgres: what it takes, what it holds, and how often the server
// plans it. Concurrency of whole relays is embedded.transport.int-spec.ts's and the chaos suite's.
describe('moveOutboxRows (integration, real Postgres)', () => {
  let url: string;
  let ds: DataSource;
  let pool: Pool;
  let client: PoolClient;
  let other: Client;

  beforeAll(async () => {
    url = await createDatabase(loadInfraConfig().databaseUrl as string);
    ds = await openServiceDataSource({
      url,
      schema: SCHEMA,
      entities: [],
      migrations: [
        InitMoveDirect1700000000000,
        outboxDeleteOnPublishMigration('OutboxQueueMoveDirect1700000000001', SCHEMA),
        outboxKeyHashMigration('OutboxKeyHashMoveDirect1700000000002', SCHEMA),
      ],
    });
    // one connection, which names its statements as the embedded bus's do
    pool = new Pool({ connectionString: url, max: 1, Client: PreparingClient });
    await ensureEventbusSchema(pool, { partitions: PARTITIONS, retentionHours: 1 });
    client = await pool.connect();
    other = new Client({ connectionString: url });
    await other.connect();
  });

  afterAll(async () => {
    client?.release();
    await pool?.end();
    await other?.end();
    await ds?.destroy();
  });

  const enqueue = async (n: number): Promise<string[]> => {
    const ids = Array.from({ length: n }, () => randomUUID());
    for (const id of ids)
      await ds.query(
        `INSERT INTO "${SCHEMA}"."outbox" (event_id, topic, key, envelope, headers) VALUES ($1, 'test.direct', $2, $3, $4)`,
        [id, id, JSON.stringify({ id }), JSON.stringify({ 'event-id': id })],
      );
    return ids;
  };
  const waiting = async (): Promise<number> =>
    (await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`))[0].n;
  const move = (limit = 100) => moveOutboxRows(client, { schema: SCHEMA, limit, partitions: PARTITIONS });
  // the advisory locks the move's connection holds now (none between moves)
  const advisoryLocksHeld = async (): Promise<number> => {
    const pid = (client as unknown as { processID: number }).processID;
    const { rows } = await other.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = $1`,
      [pid],
    );
    return rows[0].n;
  };

  it('moves the waiting rows into the log in one transaction, each once, and holds no lock after', async () => {
    const ids = await enqueue(5);
    const moved = await move();
    expect(moved.moved).toBe(5);
    expect(moved.rows?.map((r) => JSON.parse(r.value).id)).toEqual(ids);
    expect(await waiting()).toBe(0);
    expect(await advisoryLocksHeld()).toBe(0);
    expect((await move()).moved).toBe(0);
  });

  it("takes a row's partition from the key hash its writer stored, and hashes the key of a row without one in SQL", async () => {
    const keys = Array.from({ length: 40 }, () => randomUUID());
    const hashOf = (i: number): number | null => {
      if (i % 3 === 0) return null; // written before the column, or by an older release
      if (i % 3 === 1) return keyHash(keys[i]);
      return keyHash(keys[i]) + 1; // not the key's: shows which one the move used
    };
    for (const [i, key] of keys.entries())
      await ds.query(
        `INSERT INTO "${SCHEMA}"."outbox" (event_id, topic, key, envelope, headers, key_hash)
         VALUES ($1, 'test.hash', $2, '{}', '{}', $3)`,
        [randomUUID(), key, hashOf(i)],
      );
    const moved = await move();
    expect(moved.rows?.map((r) => r.partition)).toEqual(
      keys.map((key, i) => {
        const stored = hashOf(i);
        return stored === null ? partitionFor(key, PARTITIONS) : stored % PARTITIONS;
      }),
    );
  });

  it("hands a small move's rows to the consumers, not a large one's", async () => {
    await enqueue(201);
    const large = await move(500);
    expect(large.moved).toBe(201);
    expect(large.rows).toBeUndefined();
    const ids = await enqueue(200);
    const small = await move(500);
    expect(small.rows?.map((r) => JSON.parse(r.value).id)).toEqual(ids);
    expect(small.rows?.[0]).toMatchObject({ topic: 'test.direct', key: ids[0] });
  });

  it('prepares every statement once per connection and runs the move with its generic plan', async () => {
    const before = await move(); // everything prepared by now
    expect(before.moved).toBe(0);
    for (let round = 0; round < 8; round++) {
      await enqueue(1 + (round % 3));
      expect((await move(1 + round)).moved).toBeGreaterThan(0);
    }
    const { rows } = await client.query(
      `SELECT statement, generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements`,
    );
    const prepared = rows as Array<{ statement: string; generic: number; custom: number }>;
    const theMove = prepared.filter((p) => p.statement.includes('WITH taken'));
    expect(theMove).toHaveLength(1); // one text for every limit: the parameters are parameters
    expect(theMove[0].custom).toBe(0);
    expect(theMove[0].generic).toBeGreaterThanOrEqual(8);
    // the three preludes are named too: four texts in all
    expect(
      prepared.filter((p) => /set_config|pg_advisory_xact_lock|WITH taken/.test(p.statement)),
    ).toHaveLength(4);
    // the setting was the transaction's: the session's own is back
    expect((await client.query(`SHOW plan_cache_mode`)).rows[0].plan_cache_mode).toBe('auto');
  });

  it('moves nothing while another relay holds the lock, without waiting for the append lock', async () => {
    await enqueue(3);
    await other.query('BEGIN');
    try {
      await other.query('SELECT pg_advisory_xact_lock(hashtext($1))', [relayLockKey(SCHEMA)]);
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('${EVENTBUS_SCHEMA}.append'))`);
      expect((await move()).moved).toBe(0); // would hang here if it waited for the append lock
      expect(await waiting()).toBe(3);
      expect(await advisoryLocksHeld()).toBe(0);
    } finally {
      await other.query('COMMIT');
    }
    expect((await move()).moved).toBe(3);
  });

  it('waits for an append in progress, so sequence numbers become visible in order', async () => {
    await enqueue(2);
    await other.query('BEGIN');
    let settled = false;
    let moving: Promise<{ moved: number }> | undefined;
    try {
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('${EVENTBUS_SCHEMA}.append'))`);
      moving = move().finally(() => (settled = true));
      await sleep(300);
      expect(settled).toBe(false);
    } finally {
      await other.query('COMMIT');
    }
    expect((await moving!).moved).toBe(2);
  });

  it('leaves the rows in the outbox and holds no lock when the move fails, and moves them on the same connection after', async () => {
    await enqueue(4);
    await ds.query(`CREATE FUNCTION "${SCHEMA}".refuse() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'refused'; END $$`);
    await ds.query(
      `CREATE TRIGGER refuse BEFORE DELETE ON "${SCHEMA}"."outbox" FOR EACH ROW EXECUTE FUNCTION "${SCHEMA}".refuse()`,
    );
    try {
      await expect(move()).rejects.toThrow('refused');
      expect(await waiting()).toBe(4);
      expect(await advisoryLocksHeld()).toBe(0);
      const [{ logged }] = await ds.query(
        `SELECT count(*)::int AS logged FROM ${EVENTBUS_SCHEMA}.log WHERE headers->>'event-id' IN (SELECT event_id::text FROM "${SCHEMA}"."outbox")`,
      );
      expect(logged).toBe(0);
    } finally {
      await ds.query(`DROP TRIGGER refuse ON "${SCHEMA}"."outbox"`);
    }
    expect((await move()).moved).toBe(4);
    expect(await waiting()).toBe(0);
  });
});
