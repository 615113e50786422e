import { randomUUID } from 'node:crypto';

import { Kafka, logLevel } from 'kafkajs';
import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';

import { deadLetterTopic, EventEnvelope, Topics } from '@onramp/contracts';
import {
  createMessagingTables,
  openServiceDataSource,
  outboxDeleteOnPublishSql,
  outboxKeyHashSql,
} from '@onramp/persistence';
import { createDatabase, loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { EventConsumer } from './inbox/event-consumer';
import { OutboxRelay } from './outbox/outbox-relay';
import { OutboxWriter } from './outbox/outbox-writer';
import { EventTransport } from './transport/event-transport';
import { KafkaTransport } from './transport/kafka.transport';

const SCHEMA = 'msgtest';

class InitMessaging1700000000000 implements MigrationInterface {
  name = 'InitMessaging1700000000000';
  async up(qr: QueryRunner): Promise<void> {
    await createMessagingTables(qr, SCHEMA);
    for (const sql of [...outboxDeleteOnPublishSql(SCHEMA).up, ...outboxKeyHashSql(SCHEMA).up])
      await qr.query(sql);
    await qr.query(`CREATE TABLE "${SCHEMA}"."effects" (order_uuid UUID NOT NULL, event_id UUID NOT NULL)`);
  }
  async down(qr: QueryRunner): Promise<void> {
    await qr.query(`DROP SCHEMA "${SCHEMA}" CASCADE`);
  }
}

describe('outbox relay and idempotent consumer over real Kafka and Postgres', () => {
  let ds: DataSource;
  let transport: KafkaTransport;
  let relay: OutboxRelay;
  const servers = loadInfraConfig(); // the run's, from the integration global setup
  const brokers = (servers.kafkaBrokers ?? '127.0.0.1:9092').split(',');

  beforeAll(async () => {
    ds = await openServiceDataSource({
      url: await createDatabase(servers.databaseUrl!),
      schema: SCHEMA,
      entities: [],
      migrations: [InitMessaging1700000000000],
    });
    transport = new KafkaTransport({ brokers, clientId: 'msgtest', partitions: 3, replicationFactor: 1 });
    await transport.connect();
    relay = new OutboxRelay(ds, transport, { schema: SCHEMA, idleDelayMs: 50 });
    relay.start();
  });

  afterAll(async () => {
    await relay.stop();
    await transport.disconnect();
    await ds.destroy();
  });

  it('publishes a committed event once, applies it once even when delivered twice, and dead-letters a poison one', async () => {
    const orderUuid = randomUUID();
    const writer = new OutboxWriter(SCHEMA);
    const consumer = new EventConsumer(ds, transport, {
      schema: SCHEMA,
      groupId: `msgtest-${randomUUID()}`,
      maxAttempts: 2,
      retryBaseDelayMs: 10,
    });
    const seen: EventEnvelope[] = [];
    consumer.on(Topics.TransferFailed, async (event, manager) => {
      if (event.data.orderUuid !== orderUuid) return;
      if (event.data.reason === 'poison') throw new Error('handler cannot apply this');
      await manager.query(`INSERT INTO "${SCHEMA}"."effects" VALUES ($1, $2)`, [orderUuid, event.id]);
      // after its statement: a redelivery's first transaction fails there, on the event's inbox mark
      seen.push(event);
    });
    await consumer.start();

    // A rolled-back transaction leaves no event behind.
    await ds
      .transaction(async (m) => {
        await writer.append(m, {
          type: Topics.TransferFailed,
          key: orderUuid,
          merchantId: randomUUID(),
          data: { orderUuid, transactionHash: '', payedAmount: '1', reason: 'rolled back' },
        });
        throw new Error('rollback');
      })
      .catch(() => undefined);

    const envelope = await ds.transaction((m) =>
      writer.append(m, {
        type: Topics.TransferFailed,
        key: orderUuid,
        merchantId: randomUUID(),
        data: { orderUuid, transactionHash: '', payedAmount: '10.5', reason: 'reverted' },
      }),
    );
    relay.nudge();
    await waitFor(
      async () =>
        (await ds.query(`SELECT 1 FROM "${SCHEMA}"."effects" WHERE event_id = $1`, [envelope.id])).length ===
        1,
      { timeoutMs: 30_000, description: 'the effect applied' },
    );

    // Redeliver the exact same record: the inbox makes it a no-op.
    await transport.publish([
      { topic: Topics.TransferFailed, key: orderUuid, value: JSON.stringify(envelope), headers: {} },
    ]);

    // A poison event goes to the DLQ after bounded retries, carrying the error.
    const kafka = new Kafka({ brokers, clientId: 'dlq-reader', logLevel: logLevel.NOTHING });
    const dlqConsumer = kafka.consumer({ groupId: `dlq-${randomUUID()}` });
    await dlqConsumer.connect();
    await dlqConsumer.subscribe({ topic: deadLetterTopic(Topics.TransferFailed), fromBeginning: true });
    const dead: string[] = [];
    await dlqConsumer.run({
      eachMessage: async ({ message }) => {
        if (message.value?.toString().includes(orderUuid))
          dead.push(message.headers?.['dlq-error']?.toString() ?? '');
      },
    });
    await ds.transaction((m) =>
      writer.append(m, {
        type: Topics.TransferFailed,
        key: orderUuid,
        merchantId: randomUUID(),
        data: { orderUuid, transactionHash: '', payedAmount: '0', reason: 'poison' },
      }),
    );
    relay.nudge();
    await waitFor(() => dead.length === 1, { timeoutMs: 30_000, description: 'the dead letter' });
    await dlqConsumer.disconnect();

    const effects = await ds.query(`SELECT event_id FROM "${SCHEMA}"."effects" WHERE order_uuid = $1`, [
      orderUuid,
    ]);
    expect(effects).toHaveLength(1);
    expect(seen.map((e) => e.data)).toEqual([
      { orderUuid, transactionHash: '', payedAmount: '10.5', reason: 'reverted' },
    ]);
    expect(dead[0]).toContain('handler cannot apply this');
    // published rows are deleted: the outbox holds only what waits
    const left = await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`);
    expect(left[0].n).toBe(0);
  });
  it('publishes again what a relay sent but did not delete (it died in between): the effect applies once', async () => {
    await relay.stop(); // this test's relay alone reads the outbox
    const orderUuid = randomUUID();
    let crashed = false;
    const crashingOnce = withPublish(transport, async (records) => {
      await transport.publish(records);
      if (!crashed) {
        crashed = true;
        throw new Error('the relay dies after publishing, before deleting');
      }
    });
    const crashing = new OutboxRelay(ds, crashingOnce, { schema: SCHEMA, idleDelayMs: 50 });
    const consumer = new EventConsumer(ds, transport, { schema: SCHEMA, groupId: `msgtest-${randomUUID()}` });
    consumer.on(Topics.TransferFailed, async (event, manager) => {
      if (event.data.orderUuid !== orderUuid) return;
      await manager.query(`INSERT INTO "${SCHEMA}"."effects" VALUES ($1, $2)`, [orderUuid, event.id]);
    });
    await consumer.start();
    crashing.start();
    try {
      const envelope = await ds.transaction((m) =>
        new OutboxWriter(SCHEMA).append(m, {
          type: Topics.TransferFailed,
          key: orderUuid,
          merchantId: randomUUID(),
          data: { orderUuid, transactionHash: '', payedAmount: '1', reason: 'reverted' },
        }),
      );
      crashing.nudge();
      // sent twice (the failed round left the row in the outbox), deleted once sent without a failure
      const copies: string[] = [];
      const reader = new Kafka({ brokers, clientId: 'copies-reader', logLevel: logLevel.NOTHING }).consumer({
        groupId: `copies-${randomUUID()}`,
      });
      await reader.connect();
      await reader.subscribe({ topic: Topics.TransferFailed, fromBeginning: true });
      await reader.run({
        eachMessage: async ({ message }) => {
          if (message.value?.toString().includes(envelope.id)) copies.push(envelope.id);
        },
      });
      try {
        await waitFor(() => copies.length >= 2, { timeoutMs: 30_000, description: 'the event sent twice' });
      } finally {
        await reader.disconnect();
      }
      expect(crashed).toBe(true);
      await waitFor(
        async () => (await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`))[0].n === 0,
        { timeoutMs: 30_000, description: 'the outbox emptied' },
      );
      await waitFor(
        async () =>
          (await ds.query(`SELECT 1 FROM "${SCHEMA}"."effects" WHERE event_id = $1`, [envelope.id])).length >
          0,
        { timeoutMs: 30_000, description: 'the effect applied' },
      );
      await new Promise((r) => setTimeout(r, 500)); // room for a wrong second effect
      const effects = await ds.query(`SELECT event_id FROM "${SCHEMA}"."effects" WHERE order_uuid = $1`, [
        orderUuid,
      ]);
      expect(effects).toEqual([{ event_id: envelope.id }]);
    } finally {
      await crashing.stop();
      consumer.stop();
      relay.start();
    }
  });
  it('takes nothing while another relay holds the lock, and leaves a failed send in the outbox', async () => {
    await relay.stop(); // this test's relays alone read the outbox
    const orderUuid = randomUUID();
    const envelope = await ds.transaction((m) =>
      new OutboxWriter(SCHEMA).append(m, {
        type: Topics.TransferFailed,
        key: orderUuid,
        merchantId: randomUUID(),
        data: { orderUuid, transactionHash: '', payedAmount: '1', reason: 'locked' },
      }),
    );
    const waiting = async (): Promise<number> =>
      (
        await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox" WHERE event_id = $1`, [
          envelope.id,
        ])
      )[0].n;
    const sent: string[] = [];
    const recording = recordingKeys(transport, sent);
    const other = ds.createQueryRunner(); // another relay, mid-round
    try {
      await other.startTransaction();
      await other.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`${SCHEMA}.outbox`]);
      const blocked = new OutboxRelay(ds, recording, { schema: SCHEMA, idleDelayMs: 5000 });
      expect(await blocked.drainOnce(true)).toBe(0);
      expect(sent).toEqual([]);
      expect(await waiting()).toBe(1);
    } finally {
      await other.rollbackTransaction();
      await other.release();
    }
    const failing = new OutboxRelay(
      ds,
      { ...recording, publish: () => Promise.reject(new Error('broker down')) },
      { schema: SCHEMA },
    );
    await expect(failing.drainOnce(true)).rejects.toThrow('broker down');
    expect(await waiting()).toBe(1); // the delete rolled back with the failed send
    try {
      expect(await new OutboxRelay(ds, recording, { schema: SCHEMA }).drainOnce()).toBeGreaterThanOrEqual(1);
      expect(sent).toContain(orderUuid);
      expect(await waiting()).toBe(0);
    } finally {
      relay.start();
    }
  });
  it('takes the next batch while the broker has the last, and rolls the whole round back when a later send fails', async () => {
    await relay.stop(); // this test's relays alone read the outbox
    const key = randomUUID();
    const writer = new OutboxWriter(SCHEMA);
    const ids: string[] = [];
    await ds.transaction(async (m) => {
      for (let n = 0; n < 12; n++) {
        const envelope = await writer.append(m, {
          type: Topics.TransferFailed,
          key,
          merchantId: randomUUID(),
          data: { orderUuid: key, transactionHash: '', payedAmount: String(n), reason: 'read-ahead' },
        });
        ids.push(envelope.id);
      }
    });
    // rows no round holds: a round's uncommitted delete locks the rows it took
    const free = async (): Promise<number> =>
      (
        await ds.transaction((m) =>
          m.query(
            `SELECT count(*)::int AS n FROM (SELECT 1 FROM "${SCHEMA}"."outbox" FOR UPDATE SKIP LOCKED) AS r`,
          ),
        )
      )[0].n;
    const left = async (): Promise<number> =>
      (await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`))[0].n;
    const sends: string[][] = [];
    let call = 0;
    const failingSecond = withPublish(transport, async (records) => {
      call++;
      if (call === 1) {
        // batch 2 is taken (deleted, locked) while batch 1 is with the broker
        await waitFor(async () => (await free()) === 4, {
          timeoutMs: 10_000,
          description: 'batch 2 taken ahead',
        });
      }
      if (call === 2) throw new Error('broker down');
      sends.push(records.map((r) => (JSON.parse(r.value) as EventEnvelope).id));
      await transport.publish(records);
    });
    try {
      const failing = new OutboxRelay(ds, failingSecond, {
        schema: SCHEMA,
        batchSize: 4,
        batchesPerRound: 3,
      });
      await expect(failing.drainOnce(true)).rejects.toThrow('broker down');
      expect(await left()).toBe(12); // batch 1 was acknowledged, but its round did not commit
      expect(sends).toEqual([ids.slice(0, 4)]);
      // the next round sends from the first row again: batch 1 twice on the topic, each key in order
      expect(await failing.drainOnce(true)).toBe(12);
      expect(await left()).toBe(0);
      expect(sends).toEqual([ids.slice(0, 4), ids.slice(0, 4), ids.slice(4, 8), ids.slice(8, 12)]);
    } finally {
      relay.start();
    }
  });

  it('leaves a row whose transaction commits after a later one in the outbox until it commits, then sends it', async () => {
    await relay.stop(); // this test's relay alone reads the outbox
    const writer = new OutboxWriter(SCHEMA);
    const event = (key: string) => ({
      type: Topics.TransferFailed,
      key,
      merchantId: randomUUID(),
      data: { orderUuid: key, transactionHash: '', payedAmount: '1', reason: 'late commit' },
    });
    const sent: string[] = [];
    const recording = recordingKeys(transport, sent);
    const late = ds.createQueryRunner();
    const [early, after] = [randomUUID(), randomUUID()];
    try {
      await late.startTransaction();
      await writer.append(late.manager, event(early)); // the lower seq, not committed yet
      await ds.transaction((m) => writer.append(m, event(after)));
      const relay2 = new OutboxRelay(ds, recording, { schema: SCHEMA, batchSize: 4 });
      expect(await relay2.drainOnce(true)).toBe(1);
      expect(sent).toEqual([after]);
      await late.commitTransaction();
      expect(await relay2.drainOnce(true)).toBe(1);
      expect(sent).toEqual([after, early]);
      expect((await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`))[0].n).toBe(0);
    } finally {
      if (late.isTransactionActive) await late.rollbackTransaction();
      await late.release();
      relay.start();
    }
  });

  it('sends a backlog round after round, each key in order, and empties the outbox', async () => {
    await relay.stop(); // this test's relay alone reads the outbox
    const small = new OutboxRelay(ds, transport, { schema: SCHEMA, idleDelayMs: 5000, batchSize: 16 });
    const keys = Array.from({ length: 4 }, () => randomUUID());
    const perKey = 30; // 120 rows: 8 rounds of 16
    const writer = new OutboxWriter(SCHEMA);
    const ids = new Map<string, string[]>(keys.map((k) => [k, []]));
    for (let n = 0; n < perKey; n++) {
      await ds.transaction(async (m) => {
        for (const key of keys) {
          const envelope = await writer.append(m, {
            type: Topics.TransferFailed,
            key,
            merchantId: randomUUID(),
            data: { orderUuid: key, transactionHash: '', payedAmount: String(n), reason: 'backlog' },
          });
          ids.get(key)!.push(envelope.id);
        }
      });
    }
    const seen = new Map<string, string[]>(keys.map((k) => [k, []]));
    const reader = new Kafka({ brokers, clientId: 'backlog-reader', logLevel: logLevel.NOTHING }).consumer({
      groupId: `backlog-${randomUUID()}`,
    });
    await reader.connect();
    await reader.subscribe({ topic: Topics.TransferFailed, fromBeginning: true });
    await reader.run({
      eachMessage: async ({ message }) => {
        const key = message.key?.toString() ?? '';
        if (seen.has(key)) seen.get(key)!.push((JSON.parse(message.value!.toString()) as EventEnvelope).id);
      },
    });
    small.start();
    small.nudge(); // the poll is 5 s: the rounds that follow are the relay's own
    try {
      await waitFor(() => keys.every((k) => seen.get(k)!.length >= perKey), {
        timeoutMs: 30_000,
        description: 'every event on the topic',
      });
      for (const key of keys) expect(seen.get(key)).toEqual(ids.get(key));
      const left = await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`);
      expect(left[0].n).toBe(0);
    } finally {
      await reader.disconnect();
      await small.stop();
      relay.start();
    }
  });
});

// The transport, noting the key of every record it is asked to publish, in order.
function recordingKeys(inner: EventTransport, sent: string[]): EventTransport {
  return withPublish(inner, async (records) => {
    sent.push(...records.map((r) => r.key));
    await inner.publish(records);
  });
}

// The transport with another publish: what a test makes of the relay's sends (record, fail, crash).
function withPublish(inner: EventTransport, publish: EventTransport['publish']): EventTransport {
  return {
    connect: () => inner.connect(),
    subscribe: (opts) => inner.subscribe(opts),
    isConsuming: () => inner.isConsuming(),
    disconnect: () => inner.disconnect(),
    publish,
  };
}
