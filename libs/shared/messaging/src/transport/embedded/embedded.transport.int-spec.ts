import { randomUUID } from 'node:crypto';

import { Client } from 'pg';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { deadLetterTopic, Topics } from '@onramp/contracts';
import {
  createMessagingTables,
  openServiceDataSource,
  outboxDeleteOnPublishSql,
  outboxKeyHashSql,
} from '@onramp/persistence';
import { createDatabase, loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { uuidv7 } from '../../ids';
import { EventConsumer } from '../../inbox/event-consumer';
import { OutboxRelay } from '../../outbox/outbox-relay';
import { OutboxWriter } from '../../outbox/outbox-writer';
import { partitionFor } from '../murmur2-partitioner';
import { ConsumedRecord, TransportRecord } from '../event-transport';
import { EmbeddedTransport } from './embedded.transport';

const PARTITIONS = 4;
const TOPIC = 'test.embedded';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function record(key: string, n: number, topic = TOPIC): TransportRecord {
  return { topic, key, value: JSON.stringify({ key, n }), headers: { 'event-id': `${key}-${n}` } };
}

const body = (r: ConsumedRecord) => JSON.parse(r.value) as { key: string; n: number };

interface Queryable {
  query: (sql: string, params: unknown[]) => Promise<unknown>;
}

// A row of a test schema's outbox, as OutboxWriter leaves one: the event id also in its headers.
function insertOutboxRow(
  db: Queryable,
  schema: string,
  row: { topic: string; key: string; envelope: unknown; id?: string },
): Promise<unknown> {
  const id = row.id ?? randomUUID();
  return db.query(
    `INSERT INTO "${schema}"."outbox" (event_id, topic, key, envelope, headers) VALUES ($1, $2, $3, $4, $5)`,
    [id, row.topic, row.key, JSON.stringify(row.envelope), JSON.stringify({ 'event-id': id })],
  );
}

describe('EmbeddedTransport over real Postgres', () => {
  let url: string;
  const transports: EmbeddedTransport[] = [];

  const transport = async (commitIntervalMs?: number): Promise<EmbeddedTransport> => {
    const t = new EmbeddedTransport({
      databaseUrl: url,
      clientId: 'bus-test',
      partitions: PARTITIONS,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 200,
      pollIntervalMs: 200,
      commitIntervalMs,
    });
    await t.connect();
    transports.push(t);
    return t;
  };

  // A service schema as its migrations leave it: the messaging tables and the outbox that deletes what
  // it published; `extra` adds a test's own tables. `timestamp` names the migration, one per schema.
  const openOutboxSchema = (schema: string, timestamp: number, extra: string[] = []): Promise<DataSource> => {
    class InitOutboxSchema implements MigrationInterface {
      name = `Init${timestamp}`;
      async up(qr: QueryRunner): Promise<void> {
        await createMessagingTables(qr, schema);
        for (const sql of [...outboxDeleteOnPublishSql(schema).up, ...outboxKeyHashSql(schema).up, ...extra])
          await qr.query(sql);
      }
      async down(qr: QueryRunner): Promise<void> {
        await qr.query(`DROP SCHEMA "${schema}" CASCADE`);
      }
    }
    return openServiceDataSource({ url, schema, entities: [], migrations: [InitOutboxSchema] });
  };

  beforeAll(async () => {
    // The bus is per database (its partition count is fixed at creation): one fresh database for the file.
    url = await createDatabase(loadInfraConfig().databaseUrl!);
  });

  afterAll(async () => {
    await Promise.all(transports.map((t) => t.disconnect()));
  });

  it('keeps the order of each key, hashing keys to partitions as Kafka does', async () => {
    const bus = await transport();
    const group = `order-${randomUUID()}`;
    const keys = Array.from({ length: 6 }, () => randomUUID());
    const seen = new Map<string, number[]>();
    const partitionsSeen = new Map<string, number>();
    // slow, uneven handlers: partitions run concurrently, so only per-key order can hold
    await bus.subscribe({
      groupId: group,
      topics: [TOPIC],
      handle: async (r) => {
        const { key, n } = body(r);
        await sleep(n % 3);
        seen.set(key, [...(seen.get(key) ?? []), n]);
        partitionsSeen.set(key, r.partition);
      },
    });
    expect(bus.isConsuming()).toBe(true);

    // several publishers at once, each in key order
    const perKey = 25;
    await Promise.all(
      keys.map(async (key) => {
        for (let n = 0; n < perKey; n += 5) {
          await bus.publish([0, 1, 2, 3, 4].map((i) => record(key, n + i)));
        }
      }),
    );
    await waitFor(() => keys.every((k) => (seen.get(k) ?? []).length >= perKey), {
      timeoutMs: 20_000,
      intervalMs: 25,
      description: 'every event',
    });
    for (const key of keys) {
      expect(seen.get(key)).toEqual(Array.from({ length: perKey }, (_, n) => n));
      expect(partitionsSeen.get(key)).toBe(partitionFor(key, PARTITIONS));
    }
  });

  it('redelivers a record whose handler threw, and nothing of its key overtakes it', async () => {
    const bus = await transport();
    const key = randomUUID();
    const attempts: number[] = [];
    let failuresLeft = 3;
    await bus.subscribe({
      groupId: `retry-${randomUUID()}`,
      topics: [TOPIC],
      handle: async (r) => {
        const { n } = body(r);
        if (body(r).key !== key) return;
        attempts.push(n);
        if (n === 1 && failuresLeft-- > 0) throw new Error('database briefly unavailable');
      },
    });
    await bus.publish([record(key, 0), record(key, 1), record(key, 2)]);
    await waitFor(() => attempts.includes(2), {
      timeoutMs: 20_000,
      intervalMs: 25,
      description: 'the record after the failing one',
    });
    expect(attempts).toEqual([0, 1, 1, 1, 1, 2]);
  });

  it('gives every consumer group everything, and each record to one member of a group', async () => {
    const bus = await transport();
    const topic = `fanout.${randomUUID()}`;
    const a: string[] = [];
    const b: string[] = [];
    await bus.subscribe({ groupId: `a-${topic}`, topics: [topic], handle: async (r) => void a.push(r.key) });
    await bus.subscribe({ groupId: `b-${topic}`, topics: [topic], handle: async (r) => void b.push(r.key) });
    // two members of a third group (two transports, as two processes would be): each record once
    const shared: string[] = [];
    const other = await transport();
    for (const member of [bus, other]) {
      await member.subscribe({
        groupId: `shared-${topic}`,
        topics: [topic],
        handle: async (r) => void shared.push(r.key),
      });
    }
    const keys = Array.from({ length: 40 }, () => randomUUID());
    await bus.publish(keys.map((k) => record(k, 0, topic)));
    await waitFor(() => a.length === 40 && b.length === 40 && shared.length === 40, {
      timeoutMs: 20_000,
      intervalMs: 25,
      description: 'both groups',
    });
    await sleep(300);
    expect(new Set(a)).toEqual(new Set(keys));
    expect(new Set(b)).toEqual(new Set(keys));
    expect(shared.sort()).toEqual([...keys].sort());

    // an append by another process (no in-process wake-up) is found by the poll fallback
    const pg = new Client({ connectionString: url });
    await pg.connect();
    const key = randomUUID();
    await pg.query(`INSERT INTO eventbus.log (topic, partition, key, value) VALUES ($1, $2, $3, '{}')`, [
      topic,
      partitionFor(key, PARTITIONS),
      key,
    ]);
    await pg.end();
    await waitFor(() => a.includes(key) && b.includes(key), {
      timeoutMs: 5_000,
      intervalMs: 25,
      description: 'a foreign append',
    });
  });

  it('resumes a group from its committed offsets after a restart: nothing lost, nothing committed twice', async () => {
    const group = `restart-${randomUUID()}`;
    const topic = `restart.${randomUUID()}`;
    const key = randomUUID(); // one key, one partition: a strict sequence
    const first = await transport();
    const handledBefore: number[] = [];
    await first.subscribe({
      groupId: group,
      topics: [topic],
      handle: async (r) => {
        const { n } = body(r);
        if (n >= 5) throw new Error('the process dies before this one is handled');
        handledBefore.push(n);
      },
    });
    await first.publish(Array.from({ length: 8 }, (_, n) => record(key, n, topic)));
    await waitFor(() => handledBefore.length === 5, {
      timeoutMs: 20_000,
      intervalMs: 25,
      description: 'the first five',
    });
    await sleep(100); // record 5 is failing and being retried: never committed
    await first.disconnect();

    const publisher = await transport();
    await publisher.publish([record(key, 8, topic), record(key, 9, topic)]);

    const second = await transport();
    const handledAfter: number[] = [];
    await second.subscribe({
      groupId: group,
      topics: [topic],
      handle: async (r) => void handledAfter.push(body(r).n),
    });
    await waitFor(() => handledAfter.length === 5, {
      timeoutMs: 20_000,
      intervalMs: 25,
      description: 'the rest',
    });
    await sleep(300);
    expect(handledBefore).toEqual([0, 1, 2, 3, 4]);
    expect(handledAfter).toEqual([5, 6, 7, 8, 9]);
  });

  it("writes a group's offset once per interval and at stop, not after every batch", async () => {
    const group = `interval-${randomUUID()}`;
    const topic = `interval.${randomUUID()}`;
    const key = randomUUID();
    const bus = await transport(1_500);
    const handled: number[] = [];
    await bus.subscribe({
      groupId: group,
      topics: [topic],
      handle: async (r) => void handled.push(body(r).n),
    });
    const db = new Client({ connectionString: url });
    await db.connect();
    const written = async (): Promise<string | undefined> => {
      const { rows } = await db.query<{ seq: string }>(
        `SELECT seq::text AS seq FROM eventbus.offsets WHERE group_id = $1 AND topic = $2`,
        [group, topic],
      );
      return rows[0]?.seq;
    };
    const seqOf = async (n: number): Promise<string> => {
      const { rows } = await db.query<{ seq: string }>(
        `SELECT seq::text AS seq FROM eventbus.log WHERE topic = $1 AND value::jsonb ->> 'n' = $2`,
        [topic, String(n)],
      );
      return rows[0].seq;
    };
    try {
      for (let n = 0; n < 5; n++) {
        await bus.publish([record(key, n, topic)]);
        await waitFor(() => handled.length === n + 1, {
          timeoutMs: 5_000,
          intervalMs: 10,
          description: `record ${n}`,
        });
      }
      expect(await written()).toBeUndefined(); // five batches handled, no offset written yet
      await waitFor(async () => (await written()) === (await seqOf(4)), {
        timeoutMs: 5_000,
        intervalMs: 50,
        description: 'the offset written once the interval passed',
      });

      await bus.publish([record(key, 5, topic)]);
      await waitFor(() => handled.length === 6, {
        timeoutMs: 5_000,
        intervalMs: 10,
        description: 'record 5',
      });
      await bus.disconnect(); // before the interval: the offset is written at stop
      expect(await written()).toBe(await seqOf(5));
    } finally {
      await db.end();
    }
    expect(handled).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('dead-letters through EventConsumer into <topic>.dlq, fed by the outbox relay', async () => {
    const SCHEMA = 'bustest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000001);
    const bus = await transport();
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 20 });
    relay.start();
    try {
      const orderUuid = randomUUID();
      const consumer = new EventConsumer(ds, bus, {
        schema: SCHEMA,
        groupId: `dlq-${orderUuid}`,
        maxAttempts: 2,
        retryBaseDelayMs: 10,
      });
      const applied: string[] = [];
      consumer.on(Topics.TransferFailed, async (event) => {
        if (event.data.reason === 'poison') throw new Error('handler cannot apply this');
        applied.push(event.data.reason);
      });
      await consumer.start();
      const writer = new OutboxWriter(SCHEMA);
      for (const reason of ['poison', 'reverted']) {
        await ds.transaction((m) =>
          writer.append(m, {
            type: Topics.TransferFailed,
            key: orderUuid,
            merchantId: randomUUID(),
            data: { orderUuid, transactionHash: '', payedAmount: '1', reason },
          }),
        );
      }
      relay.nudge();
      await waitFor(() => applied.length === 1, {
        timeoutMs: 20_000,
        intervalMs: 25,
        description: 'the good event after the poison one',
      });
      const dead = await ds.query(`SELECT key, headers FROM eventbus.log WHERE topic = $1`, [
        deadLetterTopic(Topics.TransferFailed),
      ]);
      expect(applied).toEqual(['reverted']);
      expect(dead).toHaveLength(1);
      expect(dead[0].key).toBe(orderUuid);
      expect(dead[0].headers['dlq-error']).toContain('handler cannot apply this');
      expect(dead[0].headers['dlq-attempts']).toBe('2');
    } finally {
      await relay.stop();
      await ds.destroy();
    }
  });

  // What waits on a partition is handled in one transaction; a poison event among it rolls that
  // transaction back whole, and the events are then taken one by one: the poison one dead-lettered
  // alone, every other one applied exactly once (a second copy of an event included).
  it('handles a partition batch in one transaction, and isolates a poison event in it', async () => {
    const SCHEMA = 'batchtest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000002, [
      `CREATE TABLE "${SCHEMA}"."effects" (grp TEXT NOT NULL, reason TEXT NOT NULL, tx BIGINT NOT NULL)`,
    ]);
    const bus = await transport();
    const consumers: EventConsumer[] = [];
    try {
      const userUuid = randomUUID(); // one key, one partition
      const merchantId = randomUUID();
      const envelope = (label: string, id = uuidv7()): TransportRecord => ({
        topic: Topics.KycUserRegistered,
        key: userUuid,
        value: JSON.stringify({
          id,
          type: Topics.KycUserRegistered,
          version: 1,
          occurredAt: new Date().toISOString(),
          merchantId,
          data: { userUuid, status: 'APPROVED', holderName: label },
        }),
        headers: {},
      });
      const effects = async (groupId: string): Promise<Array<{ reason: string; tx: string }>> =>
        ds.query(`SELECT reason, tx::text AS tx FROM "${SCHEMA}"."effects" WHERE grp = $1 ORDER BY reason`, [
          groupId,
        ]);
      const consumerOf = async (groupId: string): Promise<void> => {
        const consumer = new EventConsumer(ds, bus, {
          schema: SCHEMA,
          groupId,
          maxAttempts: 2,
          retryBaseDelayMs: 10,
        });
        consumer.on(Topics.KycUserRegistered, async (event, manager) => {
          // written before the throw: the rolled-back batch must leave none of it behind
          await manager.query(
            `INSERT INTO "${SCHEMA}"."effects" (grp, reason, tx) VALUES ($1, $2, txid_current())`,
            [groupId, event.data.holderName ?? ''],
          );
          if ((event.data.holderName ?? '').startsWith('poison'))
            throw new Error('handler cannot apply this');
        });
        consumers.push(consumer);
        await consumer.start();
      };

      // all waiting before the group starts: one read, one batch, one transaction
      const twice = uuidv7();
      await bus.publish([envelope('a1', twice), envelope('a2'), envelope('a3'), envelope('a1', twice)]);
      const batchGroup = `batch-${userUuid}`;
      await consumerOf(batchGroup);
      await waitFor(async () => (await effects(batchGroup)).length >= 3, {
        timeoutMs: 20_000,
        intervalMs: 25,
        description: 'the batch',
      });
      await sleep(200);
      const first = await effects(batchGroup);
      expect(first.map((e) => e.reason)).toEqual(['a1', 'a2', 'a3']);
      expect(new Set(first.map((e) => e.tx)).size).toBe(1);

      // a poison event in the middle of the next batch
      await bus.publish([envelope('b1'), envelope('poison'), envelope('b2')]);
      const poisonGroup = `poison-${userUuid}`;
      await consumerOf(poisonGroup);
      await waitFor(async () => (await effects(poisonGroup)).length >= 5, {
        timeoutMs: 20_000,
        intervalMs: 25,
        description: 'the good events',
      });
      await sleep(300);
      // a second group reads the first batch too (a1, a2, a3 under its own inbox), then b1 and b2
      const second = await effects(poisonGroup);
      expect(second.map((e) => e.reason)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2']);
      const dead = await ds.query(
        `SELECT headers FROM eventbus.log WHERE topic = $1 AND key = $2 AND headers->>'dlq-consumer' = $3`,
        [deadLetterTopic(Topics.KycUserRegistered), userUuid, poisonGroup],
      );
      expect(dead).toHaveLength(1);
      expect(dead[0].headers['dlq-attempts']).toBe('2');
      const inbox = await ds.query(`SELECT consumer FROM "${SCHEMA}"."inbox" WHERE consumer = $1`, [
        poisonGroup,
      ]);
      expect(inbox).toHaveLength(5); // a1 (once), a2, a3, b1, b2: the poison event is not marked handled
    } finally {
      for (const c of consumers) c.stop();
      await bus.disconnect();
      await ds.destroy();
    }
  });

  it('puts a key on the same partition in SQL as in JavaScript (the outbox move hashes in SQL)', async () => {
    await transport(); // creates the bus and its function
    const keys = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'order-123',
      'ü€x',
      '😀 key',
      ...Array.from({ length: 300 }, () => randomUUID()),
    ];
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ k: string; p: number }>(
        `SELECT k, eventbus.partition_for(k, $2) AS p FROM unnest($1::text[]) AS k`,
        [keys, PARTITIONS],
      );
      expect(rows.map((r) => r.p)).toEqual(keys.map((k) => partitionFor(k, PARTITIONS)));
    } finally {
      await client.end();
    }
  });

  it('lets the relay move outbox rows into the log itself: each event once, per-key order, Kafka partitions, consumers woken', async () => {
    const SCHEMA = 'movetest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000003);
    const bus = await transport();
    const publish = jest.spyOn(bus, 'publish');
    const elsewhere = new Client({ connectionString: await createDatabase(loadInfraConfig().databaseUrl!) });
    await elsewhere.connect();
    // a small batch, so the rows take several rounds
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 16 });
    try {
      // A relay whose database has no bus (or another one) is not offered the move.
      expect(await bus.outboxMover(async (sql) => (await elsewhere.query(sql)).rows)).toBeUndefined();
      expect(await bus.outboxMover((sql) => ds.query(sql))).toBeDefined();

      const keys = Array.from({ length: 4 }, () => randomUUID());
      const perKey = 30;
      const topic = 'test.move'; // rows straight into the outbox: the move does not read them
      const seen = new Map<string, number[]>();
      await bus.subscribe({
        groupId: `move-${randomUUID()}`,
        topics: [topic],
        handle: async (r) => {
          expect(r.partition).toBe(partitionFor(r.key, PARTITIONS));
          expect(r.headers['event-id']).toBeDefined();
          const { key, n } = body(r);
          seen.set(key, [...(seen.get(key) ?? []), n]);
        },
      });
      const ids: string[] = [];
      for (let n = 0; n < perKey; n++) {
        await ds.transaction(async (m) => {
          for (const key of keys) {
            const id = randomUUID();
            ids.push(id);
            await insertOutboxRow(m, SCHEMA, { topic, key, envelope: { key, n }, id });
          }
        });
      }
      relay.start();
      relay.nudge(); // the poll is 5 s: the rounds that follow are the relay's own
      await waitFor(() => keys.every((k) => (seen.get(k) ?? []).length >= perKey), {
        timeoutMs: 20_000,
        intervalMs: 25,
        description: 'every event consumed',
      });
      for (const key of keys) expect(seen.get(key)).toEqual(Array.from({ length: perKey }, (_, n) => n));
      expect(publish).not.toHaveBeenCalled();
      // moved rows are deleted: the outbox holds only what waits
      const [{ left }] = await ds.query(`SELECT count(*)::int AS left FROM "${SCHEMA}"."outbox"`);
      expect(left).toBe(0);
      const logged = await ds.query(
        `SELECT headers->>'event-id' AS id, count(*)::int AS n FROM eventbus.log WHERE topic = $1 GROUP BY 1`,
        ['test.move'],
      );
      expect(logged.map((r: { id: string; n: number }) => [r.id, r.n]).sort()).toEqual(
        ids.map((id) => [id, 1]).sort(),
      );
    } finally {
      await relay.stop();
      await elsewhere.end();
      await ds.destroy();
    }
  });
  it('moves a row whose transaction commits after a later one only once it committed, each once', async () => {
    const SCHEMA = 'latetest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000004);
    const bus = await transport();
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 16 });
    const topic = 'test.late';
    const insert = (m: Queryable, id: string) =>
      insertOutboxRow(m, SCHEMA, { topic, key: id, envelope: { id }, id });
    const logged = async (): Promise<string[]> =>
      (
        await ds.query(`SELECT headers->>'event-id' AS id FROM eventbus.log WHERE topic = $1 ORDER BY seq`, [
          topic,
        ])
      ).map((r: { id: string }) => r.id);
    const late = ds.createQueryRunner();
    const [early, after] = [randomUUID(), randomUUID()];
    try {
      await late.startTransaction();
      await insert(late, early); // the lower seq, not committed yet
      await ds.transaction((m) => insert(m, after));
      expect(await relay.drainOnce(true)).toBe(1);
      expect(await logged()).toEqual([after]);
      await late.commitTransaction();
      expect(await relay.drainOnce(true)).toBe(1);
      expect(await logged()).toEqual([after, early]);
      const [{ left }] = await ds.query(`SELECT count(*)::int AS left FROM "${SCHEMA}"."outbox"`);
      expect(left).toBe(0);
    } finally {
      if (late.isTransactionActive) await late.rollbackTransaction();
      await late.release();
      await ds.destroy();
    }
  });

  it("hands the relay's moved rows to this process's consumers without a read of the log, and reads it after an append it was not handed", async () => {
    const SCHEMA = 'handofftest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000005);
    const bus = await transport();
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 16 });
    const topic = 'test.handoff';
    const pool = (bus as unknown as { pool: { query: (...args: unknown[]) => unknown } }).pool;
    const query = jest.spyOn(pool, 'query');
    const logReads = () =>
      query.mock.calls.filter(([sql]) => typeof sql === 'string' && sql.includes('LEFT JOIN LATERAL')).length;
    const seen: Array<{ key: string; n: number }> = [];
    const outboxEvent = (key: string, n: number) =>
      ds.transaction((m) => insertOutboxRow(m, SCHEMA, { topic, key, envelope: { key, n } }));
    try {
      await bus.subscribe({
        groupId: `handoff-${randomUUID()}`,
        topics: [topic],
        handle: async (r) => {
          seen.push(body(r));
        },
      });
      // each partition's first read, and the one its group's first poll asks for (the log has grown
      // since the group started, as far as the poll knows)
      await waitFor(() => logReads() >= PARTITIONS, { timeoutMs: 10_000, description: 'first reads' });
      await sleep(600);
      const before = logReads();
      const keys = Array.from({ length: 4 }, () => randomUUID());
      for (let n = 0; n < 5; n++) {
        for (const key of keys) await outboxEvent(key, n);
        expect(await relay.drainOnce(true)).toBe(keys.length);
      }
      await waitFor(() => seen.length >= 20, {
        timeoutMs: 10_000,
        intervalMs: 10,
        description: 'all handed',
      });
      expect(logReads()).toBe(before);
      for (const key of keys)
        expect(seen.filter((e) => e.key === key).map((e) => e.n)).toEqual([0, 1, 2, 3, 4]);

      // Another process appends to the log (no hand-off reaches this one), then this relay moves the
      // next event of the same key: its consumer reads the log and gets both, in log order.
      const [key] = keys;
      await ds.query(
        `INSERT INTO eventbus.log (topic, partition, key, value, headers)
         VALUES ($1, eventbus.partition_for($2, $3), $2, $4, '{}')`,
        [topic, key, PARTITIONS, JSON.stringify({ key, n: 5 })],
      );
      await outboxEvent(key as string, 6);
      expect(await relay.drainOnce(true)).toBe(1);
      await waitFor(() => seen.length >= 22, { timeoutMs: 10_000, intervalMs: 10, description: 'both read' });
      expect(logReads()).toBeGreaterThan(before);
      expect(seen.filter((e) => e.key === key).map((e) => e.n)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      await sleep(300);
      expect(seen).toHaveLength(22); // nothing handed out twice

      // A move larger than what is handed over (a backlog) is read from the log, a batch at a time.
      const big = randomUUID();
      const reads = logReads();
      await ds.transaction(async (m) => {
        for (let n = 0; n < 250; n++)
          await insertOutboxRow(m, SCHEMA, { topic, key: big, envelope: { key: big, n } });
      });
      const wide = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 1000 });
      expect(await wide.drainOnce(true)).toBe(250);
      await waitFor(() => seen.length >= 272, {
        timeoutMs: 10_000,
        intervalMs: 10,
        description: 'the backlog read',
      });
      expect(logReads()).toBeGreaterThan(reads);
      expect(seen.filter((e) => e.key === big).map((e) => e.n)).toEqual(
        Array.from({ length: 250 }, (_, n) => n),
      );
      await sleep(300);
      expect(seen).toHaveLength(272);
    } finally {
      query.mockRestore();
      await relay.stop();
      await ds.destroy();
    }
  });

  it('hands the batches one move wakes in several partitions over in one handleBatch call, each partition in order', async () => {
    const SCHEMA = 'gathertest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000006);
    const bus = await transport();
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 100 });
    const topic = 'test.gather';
    // one key on each partition
    const keys = new Map<number, string>();
    while (keys.size < PARTITIONS) {
      const key = randomUUID();
      keys.set(partitionFor(key, PARTITIONS), key);
    }
    const calls: Array<Array<{ partition: number; key: string; n: number }>> = [];
    try {
      await bus.subscribe({
        groupId: `gather-${randomUUID()}`,
        topics: [topic],
        handle: async () => {
          throw new Error('every record comes in a batch here');
        },
        handleBatch: async (records) => {
          calls.push(records.map((r) => ({ partition: r.partition, ...body(r) })));
        },
      });
      await waitFor(() => bus.isConsuming(), { timeoutMs: 10_000, description: 'the group joined' });
      await sleep(600); // each partition's first read done, and the group's first poll
      await ds.transaction(async (m) => {
        for (let n = 0; n < 2; n++)
          for (const key of keys.values())
            await insertOutboxRow(m, SCHEMA, { topic, key, envelope: { key, n } });
      });
      expect(await relay.drainOnce(true)).toBe(2 * PARTITIONS);
      await waitFor(() => calls.flat().length >= 2 * PARTITIONS, {
        timeoutMs: 10_000,
        intervalMs: 10,
        description: 'all handed',
      });
      await sleep(300);
      // one call (one consumer transaction) for the move, not one per partition
      expect(calls).toHaveLength(1);
      const [call] = calls;
      for (const [partition, key] of keys)
        expect(call!.filter((r) => r.partition === partition).map((r) => [r.key, r.n])).toEqual([
          [key, 0],
          [key, 1],
        ]);
    } finally {
      await relay.stop();
      await ds.destroy();
    }
  });

  it('lets events that may wait for company gather, when the group is busy, into one handleBatch call', async () => {
    const SCHEMA = 'waittest';
    const ds = await openOutboxSchema(SCHEMA, 1700000000007);
    const bus = await transport();
    const relay = new OutboxRelay(ds, bus, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 100 });
    const topic = 'test.may-wait';
    const calls: Array<{ at: number; keys: string[] }> = [];
    const move = async (key: string) => {
      await ds.transaction((m) => insertOutboxRow(m, SCHEMA, { topic, key, envelope: { key, n: 0 } }));
      expect(await relay.drainOnce(true)).toBe(1);
    };
    try {
      await bus.subscribe({
        groupId: `wait-${randomUUID()}`,
        topics: [topic],
        handle: async () => {
          throw new Error('every record comes in a batch here');
        },
        handleBatch: async (records) => {
          calls.push({ at: Date.now(), keys: records.map((r) => body(r).key) });
        },
        mayWaitMs: (t) => (t === topic ? 400 : 0),
      });
      await waitFor(() => bus.isConsuming(), { timeoutMs: 10_000, description: 'the group joined' });
      await sleep(600); // each partition's first read done, and the group's first poll
      const first = Date.now();
      await move('a'); // a quiet group: handed over at once
      await waitFor(() => calls.length === 1, { timeoutMs: 10_000, intervalMs: 5, description: 'a handed' });
      expect(calls[0]!.at - first).toBeLessThan(300);
      // three moves, each waking the group, on three partitions (a partition hands over one chunk at a time)
      const used = new Set([partitionFor('a', PARTITIONS)]);
      const later: string[] = [];
      for (let i = 0; later.length < 3; i++) {
        const key = `k${i}`;
        if (used.has(partitionFor(key, PARTITIONS))) continue;
        used.add(partitionFor(key, PARTITIONS));
        later.push(key);
      }
      for (const key of later) await move(key);
      await waitFor(() => calls.flatMap((c) => c.keys).length === 4, {
        timeoutMs: 10_000,
        intervalMs: 5,
        description: 'all handed',
      });
      await sleep(100);
      expect(calls.map((c) => [...c.keys].sort())).toEqual([['a'], later.sort()]);
      expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(350);
    } finally {
      await relay.stop();
      await ds.destroy();
    }
  });
});
