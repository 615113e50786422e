import { randomUUID } from 'node:crypto';

import { Pool } from 'pg';

import { EmbeddedTransport, EVENTBUS_SCHEMA } from '@onramp/messaging';
import { createDatabase, testDatabaseServer } from '@onramp/testing';

import { replayEmbeddedDeadLetters } from './replay-embedded-dead-letters';

describe('replayEmbeddedDeadLetters (the event bus of npm start, real Postgres)', () => {
  let databaseUrl: string;
  let transport: EmbeddedTransport;
  let pool: Pool;

  beforeAll(async () => {
    databaseUrl = await createDatabase(testDatabaseServer());
    transport = new EmbeddedTransport({ databaseUrl, clientId: 'replay-spec', partitions: 3 });
    await transport.connect();
    pool = new Pool({ connectionString: databaseUrl, max: 1 });
  });
  afterAll(async () => {
    await transport?.disconnect();
    await pool?.end();
  });

  const rowsOf = async (topic: string) =>
    (
      await pool.query<{ key: string; value: string; headers: Record<string, string> }>(
        `SELECT key, value, headers FROM ${EVENTBUS_SCHEMA}.log WHERE topic = $1 ORDER BY seq`,
        [topic],
      )
    ).rows;

  it('re-publishes dead letters to their source topic once, without the dlq headers; a dry run changes nothing', async () => {
    const orderUuid = randomUUID();
    const eventId = randomUUID();
    await transport.publish([
      {
        topic: 'order.completed.dlq',
        key: orderUuid,
        value: JSON.stringify({ id: eventId, type: 'order.completed' }),
        headers: {
          'event-id': eventId,
          'event-type': 'order.completed',
          'dlq-consumer': 'onramp-webhook-dispatch',
          'dlq-error': 'endpoint table missing',
        },
      },
      {
        topic: 'order.failed.dlq',
        key: randomUUID(),
        value: '{}',
        headers: { 'dlq-consumer': 'onramp-other' },
      },
    ]);

    const dry = await replayEmbeddedDeadLetters({
      databaseUrl,
      dryRun: true,
      consumer: 'onramp-webhook-dispatch',
    });
    expect(dry.records.map((r) => [r.sourceTopic, r.action])).toEqual([
      ['order.completed', 'would-replay'],
      ['order.failed', 'skipped'], // another consumer's dead letter
    ]);
    expect(await rowsOf('order.completed')).toEqual([]);

    const done = await replayEmbeddedDeadLetters({ databaseUrl, consumer: 'onramp-webhook-dispatch' });
    expect(done).toMatchObject({
      replayed: 1,
      skipped: 1,
      groupId: 'onramp-dlq-replay.onramp-webhook-dispatch',
    });
    const [replayed] = await rowsOf('order.completed');
    expect(replayed.key).toBe(orderUuid);
    expect(JSON.parse(replayed.value)).toEqual({ id: eventId, type: 'order.completed' });
    expect(replayed.headers).toEqual({
      'event-id': eventId,
      'event-type': 'order.completed',
      'replayed-from': expect.stringMatching(/^order\.completed\.dlq@\d+:\d+$/),
    });

    expect(
      (await replayEmbeddedDeadLetters({ databaseUrl, consumer: 'onramp-webhook-dispatch' })).records,
    ).toEqual([]);
    expect(await rowsOf('order.completed')).toHaveLength(1);
  });
});
