import { randomUUID } from 'node:crypto';

import { Consumer, Kafka, logLevel } from 'kafkajs';
import { DataSource } from 'typeorm';

import { deadLetterTopic, EventHeaders, Topics } from '@onramp/contracts';
import { EventConsumer, KafkaTransport, newTraceparent, uuidv7 } from '@onramp/messaging';
import { createDatabase, loadTestEnv, testDatabaseServer, waitFor } from '@onramp/testing';

import { replayDeadLetters } from './replay-dead-letters';

const TOPIC = Topics.KycUserRegistered;
const SCHEMA = 'replay_test';

// Real Kafka and Postgres: an idempotent consumer (inbox) whose handler fails until "fixed"
// dead-letters three events; the replay brings them back, once, and a forced second replay
// changes nothing.
describe('replayDeadLetters against Kafka and Postgres', () => {
  const brokers = loadTestEnv().kafkaBrokers;
  const kafka = new Kafka({ clientId: `replay-test-${randomUUID()}`, brokers, logLevel: logLevel.NOTHING });
  const groupId = `replay-test-${randomUUID()}`;
  const replayGroup = `replay-test-tool-${randomUUID()}`;
  const ids = [uuidv7(), uuidv7(), uuidv7()];
  let failing = true;
  let ds: DataSource;
  let transport: KafkaTransport;
  let collector: Consumer;
  const seen: Array<{ key: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    ds = new DataSource({
      type: 'postgres',
      url: await createDatabase(testDatabaseServer()),
    });
    await ds.initialize();
    await ds.query(`CREATE SCHEMA ${SCHEMA}`);
    await ds.query(
      `CREATE TABLE ${SCHEMA}.inbox (consumer TEXT, event_id UUID, topic TEXT, PRIMARY KEY (consumer, event_id))`,
    );
    await ds.query(`CREATE TABLE ${SCHEMA}.effects (event_id UUID NOT NULL, at TIMESTAMPTZ DEFAULT now())`);
    transport = new KafkaTransport({ brokers, clientId: groupId, partitions: 3, replicationFactor: 1 });
    await transport.connect();
    await startGroupAtEnd(groupId); // other suites' events on this shared broker are not ours

    const consumer = new EventConsumer(ds, transport, {
      schema: SCHEMA,
      groupId,
      maxAttempts: 2,
      retryBaseDelayMs: 10,
    });
    consumer.on(TOPIC, async (event, manager) => {
      if (failing) throw new Error('the database says no');
      await manager.query(`INSERT INTO ${SCHEMA}.effects (event_id) VALUES ($1)`, [event.id]);
    });
    await consumer.start();

    collector = kafka.consumer({ groupId: `replay-test-collector-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await collector.connect();
    await collector.subscribe({ topics: [TOPIC], fromBeginning: true });
    await collector.run({
      eachMessage: async ({ message }) => {
        const key = message.key?.toString() ?? '';
        if (!ids.includes(key)) return;
        const headers = Object.fromEntries(
          Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
        );
        seen.push({ key, headers });
      },
    });
  });

  afterAll(async () => {
    await collector?.disconnect();
    await transport?.disconnect();
    await ds?.destroy();
  });

  async function startGroupAtEnd(group: string): Promise<void> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      // The topic may have just been created: its leader can take a moment to be elected.
      const ends = await waitFor(() => admin.fetchTopicOffsets(TOPIC), {
        timeoutMs: 30_000,
        description: `the offsets of ${TOPIC}`,
      });
      await admin.setOffsets({
        groupId: group,
        topic: TOPIC,
        partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
      });
    } finally {
      await admin.disconnect();
    }
  }

  async function lagOf(group: string): Promise<bigint> {
    const admin = kafka.admin();
    await admin.connect();
    try {
      // The topic may have just been created: its leader can take a moment to be elected.
      const ends = await waitFor(() => admin.fetchTopicOffsets(TOPIC), {
        timeoutMs: 30_000,
        description: `the offsets of ${TOPIC}`,
      });
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [TOPIC] });
      return ends.reduce((sum, p) => {
        const at = BigInt(committed.partitions.find((c) => c.partition === p.partition)?.offset ?? '-1');
        return sum + (BigInt(p.high) - (at < 0n ? BigInt(p.low) : at));
      }, 0n);
    } finally {
      await admin.disconnect();
    }
  }

  const effects = async (): Promise<Record<string, number>> => {
    const rows: Array<{ event_id: string; n: string }> = await ds.query(
      `SELECT event_id, count(*)::text AS n FROM ${SCHEMA}.effects GROUP BY event_id`,
    );
    return Object.fromEntries(rows.map((r) => [r.event_id, Number(r.n)]));
  };

  const replay = (opts: { dryRun?: boolean; since?: Date; groupId?: string } = {}) =>
    replayDeadLetters({
      brokers,
      topics: [TOPIC],
      consumer: groupId,
      groupId: replayGroup,
      timeoutMs: 60_000,
      ...opts,
    });

  it('replays what a consumer dead-lettered, once, without the dlq headers, and the consumer applies it once', async () => {
    await transport.publish(
      ids.map((id) => ({
        topic: TOPIC,
        key: id, // the event id doubles as key so the collector can tell our records apart
        value: JSON.stringify({
          id,
          type: TOPIC,
          version: 1,
          occurredAt: new Date().toISOString(),
          merchantId: randomUUID(),
          data: { userUuid: randomUUID(), status: 'APPROVED' },
        }),
        headers: {
          [EventHeaders.Id]: id,
          [EventHeaders.Type]: TOPIC,
          [EventHeaders.TraceParent]: newTraceparent(),
        },
      })),
    );
    // a dead letter of another consumer: never replayed by a run filtered on ours
    await transport.publish([
      {
        topic: deadLetterTopic(TOPIC),
        key: 'not-ours',
        value: '{}',
        headers: { 'dlq-consumer': 'someone-else' },
      },
    ]);

    const listed = await waitFor(
      async () => {
        const r = await replay({ dryRun: true });
        return r.records.filter((d) => d.action === 'would-replay').length === 3 ? r : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 1000, description: 'three dead letters of our consumer' },
    );
    expect(
      listed.records
        .filter((d) => d.action === 'would-replay')
        .map((d) => d.eventId)
        .sort(),
    ).toEqual([...ids].sort());
    expect(listed.records.every((d) => d.consumer === groupId || d.action === 'skipped')).toBe(true);
    expect(listed.records.find((d) => d.eventId === ids[0])).toMatchObject({
      sourceTopic: TOPIC,
      error: 'the database says no',
    });
    expect(await effects()).toEqual({});
    expect((await replay({ dryRun: true, since: new Date(Date.now() + 60_000) })).replayed).toBe(0);

    failing = false; // the bug is fixed and deployed
    const first = await replay();
    expect(first).toMatchObject({ dryRun: false, replayed: 3, groupId: `${replayGroup}.${groupId}` });
    await waitFor(async () => Object.keys(await effects()).length === 3, {
      timeoutMs: 30_000,
      description: 'the replayed events applied',
    });
    const replayedCopies = await waitFor(
      () => {
        const copies = seen.filter((s) => s.headers['replayed-from']);
        return copies.length === 3 ? copies : undefined;
      },
      { timeoutMs: 30_000, description: 'the re-published records' },
    );
    for (const copy of replayedCopies) {
      expect(Object.keys(copy.headers).filter((k) => k.startsWith('dlq-'))).toEqual([]);
      expect(copy.headers[EventHeaders.Id]).toBe(copy.key);
      expect(copy.headers['replayed-from']).toMatch(/^kyc\.user\.registered\.dlq@\d+:\d+$/);
    }

    // committed: the same replay again finds nothing new
    expect((await replay()).replayed).toBe(0);
    // forced through a fresh group: published again, and the inbox makes it a no-op
    expect((await replay({ groupId: `${replayGroup}-again` })).replayed).toBe(3);
    await waitFor(() => seen.filter((s) => s.headers['replayed-from']).length === 6, {
      timeoutMs: 30_000,
      description: 'the second copies consumed',
    });
    await waitFor(() => lagOf(groupId).then((lag) => lag === 0n), {
      timeoutMs: 30_000,
      description: 'our consumer through the second copies',
    });
    expect(await effects()).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
  });
});
