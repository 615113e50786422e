import { randomUUID } from 'node:crypto';

import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { outboxDeleteOnPublishSql } from '@onramp/persistence';
import { waitFor } from '@onramp/platform-infra';

import { openMessagingTestDatabase } from '../testing/messaging-test-database';
import { EmbeddedTransport } from '../transport/embedded/embedded.transport';
import { relayLockKey } from '../transport/event-transport';
import { OutboxRelay } from './outbox-relay';
import { OutboxWriter } from './outbox-writer';

const SCHEMA = 'relaywake';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Real Postgres, the embedded bus: an idle relay asks the database only at its safety-net interval,
// yet rows a writer of its process prepared go out at the next tick even without a wake-up, and rows
// behind a lock another relay holds go out soon after it is released.
describe('OutboxRelay wake-ups and safety net (integration)', () => {
  let ds: DataSource;
  let bus: EmbeddedTransport;
  let other: Client;
  let relay: OutboxRelay;
  const writer = new OutboxWriter(SCHEMA);

  beforeAll(async () => {
    const db = await openMessagingTestDatabase(SCHEMA, outboxDeleteOnPublishSql(SCHEMA).up);
    ds = db.ds;
    const url = db.url;
    bus = new EmbeddedTransport({ databaseUrl: url, clientId: 'relaywake', partitions: 2 });
    await bus.connect();
    other = new Client({ connectionString: url });
    await other.connect();
  });

  afterEach(async () => {
    await relay?.stop();
  });

  afterAll(async () => {
    await bus?.disconnect();
    await other?.end();
    await ds?.destroy();
  });

  const waiting = async (): Promise<number> =>
    Number((await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`))[0].n);

  const append = (): Promise<unknown> =>
    ds.transaction((m) =>
      writer.append(m, {
        type: Topics.TransferFailed,
        key: randomUUID(),
        merchantId: randomUUID(),
        data: { orderUuid: randomUUID(), transactionHash: '', payedAmount: '1', reason: 'reverted' },
      }),
    );

  const start = (safetyNetMs: number): jest.SpyInstance => {
    const queries = jest.spyOn(ds, 'query');
    relay = new OutboxRelay(ds, bus, {
      schema: SCHEMA,
      idleDelayMs: 20,
      safetyNetMs,
      eventsPrepared: () => writer.prepared,
    });
    relay.start();
    return queries;
  };

  it('looks at the database once per safety-net interval when idle, not at every tick', async () => {
    const queries = start(1_000);
    await sleep(700); // 35 ticks
    const looks = queries.mock.calls.filter(([sql]) => String(sql).includes('AS waiting')).length;
    queries.mockRestore();
    expect(looks).toBeLessThanOrEqual(2); // at start (35 ticks went by)
  });

  it("takes a row its process's writer committed at the next tick, without a wake-up", async () => {
    start(60_000);
    await sleep(100);
    await append(); // no nudge
    await waitFor(async () => (await waiting()) === 0, {
      timeoutMs: 2_000,
      intervalMs: 10,
      description: 'the move',
    });
  });

  it('finds a row committed behind its back at the safety-net look', async () => {
    start(300);
    await sleep(100);
    await other.query(
      `INSERT INTO "${SCHEMA}"."outbox" (event_id, topic, key, envelope, headers) VALUES ($1, 'test.wake', 'k', '{}', '{}')`,
      [randomUUID()],
    );
    await waitFor(async () => (await waiting()) === 0, {
      timeoutMs: 3_000,
      intervalMs: 10,
      description: 'the move',
    });
  });

  it('moves rows another relay held the lock over soon after it lets go, not at the safety-net look', async () => {
    start(60_000);
    await sleep(100);
    await other.query('BEGIN');
    await other.query('SELECT pg_advisory_xact_lock(hashtext($1))', [relayLockKey(SCHEMA)]);
    await append();
    relay.nudge();
    await sleep(300);
    expect(await waiting()).toBe(1); // the other relay's lock
    await other.query('COMMIT');
    await waitFor(async () => (await waiting()) === 0, {
      timeoutMs: 2_000,
      intervalMs: 10,
      description: 'the move',
    });
  });

  it('looks again after a failed round, once its backoff is over', async () => {
    const queries = start(60_000);
    await sleep(100);
    // the row and its wake-up, then the relay's look fails (the other session reads and writes here)
    await other.query(
      `INSERT INTO "${SCHEMA}"."outbox" (event_id, topic, key, envelope, headers) VALUES ($1, 'test.wake', 'k', '{}', '{}')`,
      [randomUUID()],
    );
    queries.mockRejectedValueOnce(new Error('connection reset'));
    relay.nudge();
    const left = async () =>
      Number((await other.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."outbox"`)).rows[0].n);
    await waitFor(async () => (await left()) === 0, {
      timeoutMs: 3_000,
      intervalMs: 10,
      description: 'the move after the failure',
    });
  });
});
