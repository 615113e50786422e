import { randomUUID } from 'node:crypto';

import { Client } from 'pg';
import { DataSource, EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { takeXactLocks, XactLock } from '@onramp/persistence';
import { waitFor } from '@onramp/platform-infra';

import { uuidv7 } from '../ids';
import { openMessagingTestDatabase } from '../testing/messaging-test-database';
import { EmbeddedTransport } from '../transport/embedded/embedded.transport';
import { TransportRecord } from '../transport/event-transport';
import { EventConsumer } from './event-consumer';

const SCHEMA = 'lockfirst';

const lockOf = (name: string): XactLock => ({ form: 'text-pair', space: 'lockfirst', name });

// Real Postgres, the embedded bus: the locks a handler names first are taken with the inbox mark,
// before the handler's first statement, which therefore sees what their previous holder committed.
describe('EventConsumer locks a handler takes first (integration)', () => {
  let url: string;
  let ds: DataSource;
  let bus: EmbeddedTransport;
  let other: Client;
  const consumers: EventConsumer[] = [];

  // a database per case: a new group reads the bus from its start, and must find only its case's events
  beforeEach(async () => {
    ({ url, ds } = await openMessagingTestDatabase(SCHEMA, [
      `CREATE TABLE "${SCHEMA}"."facts" (name TEXT PRIMARY KEY)`,
    ]));
    bus = new EmbeddedTransport({
      databaseUrl: url,
      clientId: 'lockfirst',
      partitions: 2,
      pollIntervalMs: 100,
    });
    await bus.connect();
    other = new Client({ connectionString: url });
    await other.connect();
  });

  afterEach(async () => {
    for (const c of consumers.splice(0)) c.stop();
    await bus?.disconnect();
    await other?.end();
    await ds?.destroy();
  });

  // kyc.user.registered events (any registered type will do) whose holderName names the lock
  const event = (key: string, name: string): TransportRecord => ({
    topic: Topics.KycUserRegistered,
    key,
    value: JSON.stringify({
      id: uuidv7(),
      type: Topics.KycUserRegistered,
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId: randomUUID(),
      data: { userUuid: key, status: 'APPROVED', holderName: name },
    }),
    headers: {},
  });

  interface Seen {
    name: string;
    factVisible: boolean;
    statementsForOwnLock: number;
    heldByMe: string[]; // the lockfirst locks this transaction's backend held when the handler began
  }

  const start = async (seen: Seen[]): Promise<void> => {
    const consumer = new EventConsumer(ds, bus, { schema: SCHEMA, groupId: `g-${randomUUID()}` });
    consumer.on(
      Topics.KycUserRegistered,
      async (e, manager: EntityManager) => {
        const name = e.data.holderName ?? '';
        const held: Array<{ objid: string }> = await manager.query(
          `SELECT objid::text FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
             AND classid = hashtext('lockfirst')::oid ORDER BY objid`,
        );
        const query = jest.spyOn(manager, 'query');
        await takeXactLocks(manager, [lockOf(name)]);
        const statementsForOwnLock = query.mock.calls.length;
        query.mockRestore();
        const [fact] = await manager.query(`SELECT 1 FROM "${SCHEMA}"."facts" WHERE name = $1`, [name]);
        seen.push({
          name,
          factVisible: fact !== undefined,
          statementsForOwnLock,
          heldByMe: held.map((h) => h.objid),
        });
      },
      { locksFirst: (e) => [lockOf(e.data.holderName ?? '')] },
    );
    consumers.push(consumer);
    await consumer.start();
  };

  it('waits for the lock with the inbox mark, then sees what its holder committed, at no extra statement', async () => {
    const seen: Seen[] = [];
    // another transaction holds the lock and has not written its fact yet
    await other.query('BEGIN');
    await other.query(`SELECT pg_advisory_xact_lock(hashtext('lockfirst'), hashtext('first'))`);
    await bus.publish([event(randomUUID(), 'first')]);
    await start(seen);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).toEqual([]); // waiting for the lock
    await other.query(`INSERT INTO "${SCHEMA}"."facts" VALUES ('first')`);
    await other.query('COMMIT');
    await waitFor(() => seen.length === 1, { timeoutMs: 10_000, intervalMs: 20, description: 'the handler' });
    expect(seen[0]).toMatchObject({ name: 'first', factVisible: true, statementsForOwnLock: 0 });
    expect(seen[0].heldByMe).toHaveLength(1);
  });

  it('takes the locks of every event of a batch before the first handler runs', async () => {
    const seen: Seen[] = [];
    const key = randomUUID(); // one key, one partition: one batch
    await bus.publish(['c', 'a', 'b'].map((name) => event(key, name)));
    await start(seen);
    await waitFor(() => seen.length === 3, { timeoutMs: 10_000, intervalMs: 20, description: 'the batch' });
    expect(seen.map((s) => s.name)).toEqual(['c', 'a', 'b']);
    expect(seen[0].heldByMe).toHaveLength(3);
    expect(seen.every((s) => s.statementsForOwnLock === 0)).toBe(true);
  });
});
