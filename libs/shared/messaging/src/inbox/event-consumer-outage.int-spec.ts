import { randomUUID } from 'node:crypto';

import { Logger } from '@nestjs/common';
import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { deadLetterTopic, EventHeaders, Topics } from '@onramp/contracts';
import { createDatabase, loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { uuidv7 } from '../ids';
import { KafkaTransport } from '../transport/kafka.transport';
import { EventConsumer } from './event-consumer';

const TOPIC = Topics.KycUserRegistered;

const SCHEMA = 'outage_test';

// Real Postgres and Kafka: while the consumer's database refuses connections, an event is not
// dead-lettered however often it fails; once the database is back it is applied, once.
describe('EventConsumer during a database outage', () => {
  const servers = loadInfraConfig(); // the run's, from the integration global setup
  const brokers = (servers.kafkaBrokers as string).split(',');
  const kafka = new Kafka({ clientId: `outage-test-${randomUUID()}`, brokers, logLevel: logLevel.NOTHING });
  const groupId = `outage-test-${randomUUID()}`;
  let url: string;
  let ds: DataSource;
  let transport: KafkaTransport;
  const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);

  beforeAll(async () => {
    url = await createDatabase(servers.databaseUrl as string);
    ds = new DataSource({ type: 'postgres', url, extra: { connectionTimeoutMillis: 2000 } });
    await ds.initialize();
    await ds.query(`CREATE SCHEMA ${SCHEMA}`);
    await ds.query(
      `CREATE TABLE ${SCHEMA}.inbox (consumer TEXT, event_id UUID, topic TEXT, PRIMARY KEY (consumer, event_id))`,
    );
    await ds.query(`CREATE TABLE ${SCHEMA}.effects (event_id UUID NOT NULL)`);
    transport = new KafkaTransport({ brokers, clientId: groupId, partitions: 3, replicationFactor: 1 });
    await transport.connect();
    const admin = kafka.admin();
    await admin.connect();
    // Other suites' events on this broker are not ours. The topic may have just been created: its
    // leader can take a moment to be elected.
    const ends = await waitFor(() => admin.fetchTopicOffsets(TOPIC), {
      timeoutMs: 30_000,
      description: `the offsets of ${TOPIC}`,
    });
    await admin.setOffsets({
      groupId,
      topic: TOPIC,
      partitions: ends.map((p) => ({ partition: p.partition, offset: p.high })),
    });
    await admin.disconnect();

    const consumer = new EventConsumer(ds, transport, {
      schema: SCHEMA,
      groupId,
      maxAttempts: 2,
      retryBaseDelayMs: 50,
    });
    consumer.on(TOPIC, async (event, manager) => {
      await manager.query(`INSERT INTO ${SCHEMA}.effects (event_id) VALUES ($1)`, [event.id]);
    });
    await consumer.start();
  });

  afterAll(async () => {
    await setConnectable(true).catch(() => undefined);
    await transport?.disconnect();
    await ds?.destroy();
    warn.mockRestore();
  });

  // ALLOW_CONNECTIONS false and the open sessions cut: to this consumer, the database is down.
  async function setConnectable(allowed: boolean): Promise<void> {
    const db = new URL(url).pathname.slice(1);
    const admin = new Client({ connectionString: servers.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`ALTER DATABASE "${db}" ALLOW_CONNECTIONS ${allowed}`);
      if (!allowed) {
        await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [db]);
      }
    } finally {
      await admin.end();
    }
  }

  it('waits the outage out instead of dead-lettering, then applies the event once', async () => {
    const id = uuidv7();
    await setConnectable(false);
    await transport.publish([
      {
        topic: TOPIC,
        key: id,
        value: JSON.stringify({
          id,
          type: TOPIC,
          version: 1,
          occurredAt: new Date().toISOString(),
          merchantId: randomUUID(),
          data: { userUuid: randomUUID(), status: 'APPROVED' },
        }),
        headers: { [EventHeaders.Id]: id, [EventHeaders.Type]: TOPIC },
      },
    ]);
    const waiting = () =>
      warn.mock.calls.filter(
        ([m]) => String(m).includes(`${id} attempt`) && String(m).includes('database unreachable'),
      ).length;
    // well past maxAttempts: before, the event would have been dead-lettered by now
    await waitFor(() => waiting() >= 3, {
      timeoutMs: 60_000,
      description: 'the consumer waiting for its database',
    });

    await setConnectable(true);
    await waitFor(
      async () => {
        const rows: unknown[] = await ds.query(`SELECT 1 FROM ${SCHEMA}.effects WHERE event_id = $1`, [id]);
        return rows.length === 1;
      },
      { timeoutMs: 60_000, description: 'the event applied once the database is back' },
    );

    // nothing of ours on the dead-letter topic
    const admin = kafka.admin();
    await admin.connect();
    const ends = await admin.fetchTopicOffsets(deadLetterTopic(TOPIC));
    await admin.disconnect();
    const parked: string[] = [];
    const reader = kafka.consumer({ groupId: `outage-test-dlq-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await reader.connect();
    await reader.subscribe({ topics: [deadLetterTopic(TOPIC)], fromBeginning: true });
    let read = 0n;
    const total = ends.reduce((n, p) => n + BigInt(p.high) - BigInt(p.low), 0n);
    await reader.run({
      eachMessage: async ({ message }) => {
        read++;
        if (message.key?.toString() === id) parked.push(id);
      },
    });
    await waitFor(() => read >= total, { timeoutMs: 30_000, description: 'the dead-letter topic read' });
    await reader.disconnect();
    expect(parked).toEqual([]);
  });
});
