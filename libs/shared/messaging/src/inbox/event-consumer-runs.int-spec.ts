import { randomUUID } from 'node:crypto';

import { DataSource, EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { currentLogContext } from '@onramp/logging';

import { uuidv7 } from '../ids';
import { consumedEvent } from '../testing/consumed-event';
import { openMessagingTestDatabase } from '../testing/messaging-test-database';
import { EmbeddedTransport } from '../transport/embedded/embedded.transport';
import { ConsumedRecord } from '../transport/event-transport';
import { EventConsumer } from './event-consumer';

const SCHEMA = 'runs';

// Real Postgres: a handler's preparer is given each run of two or more new events of its type that
// follow each other in a batch, in the batch's transaction, before the first of them is handled.
describe('EventConsumer runs of one type in a batch (integration)', () => {
  let ds: DataSource;
  let bus: EmbeddedTransport;
  let offset = 0;

  beforeAll(async () => {
    const db = await openMessagingTestDatabase(SCHEMA, [
      `CREATE TABLE "${SCHEMA}"."facts" (name TEXT PRIMARY KEY)`,
    ]);
    ds = db.ds;
    const url = db.url;
    bus = new EmbeddedTransport({ databaseUrl: url, clientId: 'runs', partitions: 1, pollIntervalMs: 100 });
    await bus.connect();
  });

  afterAll(async () => {
    await bus?.disconnect();
    await ds?.destroy();
  });

  const record = (topic: string, data: object, id?: string): ConsumedRecord =>
    consumedEvent(topic, data, offset++, id);
  const registered = (name: string, id?: string): ConsumedRecord =>
    record(Topics.KycUserRegistered, { userUuid: randomUUID(), status: 'APPROVED', holderName: name }, id);
  const erased = (): ConsumedRecord =>
    record(Topics.KycUserErased, { userUuid: randomUUID(), erasedAt: new Date().toISOString() });

  const facts = async (): Promise<string[]> =>
    (await ds.query(`SELECT name FROM "${SCHEMA}"."facts" ORDER BY name`)).map(
      (r: { name: string }) => r.name,
    );

  // Logs, in order, each run prepared and each event handled, and whether the run was in the
  // handler's transaction (the preparer writes a fact the handler then reads).
  const consumer = (log: string[], failOn?: string): EventConsumer => {
    const c = new EventConsumer(ds, bus, { schema: SCHEMA, groupId: `g-${randomUUID()}`, maxAttempts: 1 });
    c.on(
      Topics.KycUserRegistered,
      async (e, manager: EntityManager) => {
        const name = e.data.holderName ?? '';
        const [row] = await manager.query(
          `SELECT count(*)::int AS n FROM "${SCHEMA}"."facts" WHERE name = $1`,
          [`prepared ${name}`],
        );
        log.push(`handle ${name}${row.n ? ' (prepared)' : ''}`);
        if (name === failOn) throw new Error(`${name} fails`);
      },
      {
        prepareRun: async (events, manager, inEventContext) => {
          const names = events.map((e) => e.data.holderName ?? '');
          // each event's own log context on demand
          const own = events.every((e, i) => inEventContext(i, () => currentLogContext().eventId === e.id));
          log.push(`run ${names.join(',')}${own ? '' : " (not in its events' contexts)"}`);
          await manager.query(
            `INSERT INTO "${SCHEMA}"."facts" (name) SELECT 'prepared ' || n FROM unnest($1::text[]) AS n`,
            [names],
          );
        },
      },
    );
    c.on(Topics.KycUserErased, async () => {
      log.push('handle erased');
    });
    return c;
  };

  beforeEach(() => ds.query(`TRUNCATE "${SCHEMA}"."facts"`));

  it('gives each run of two or more, in log order, before its first event; a lone event has none', async () => {
    const log: string[] = [];
    const redelivered = uuidv7();
    const c = consumer(log);
    await c.handleBatch([registered('z', redelivered), erased()]);
    log.splice(0);
    await c.handleBatch([
      registered('a'),
      registered('b'),
      erased(),
      registered('c'),
      erased(),
      registered('z', redelivered), // handled before: not in the run that follows it
      registered('d'),
      registered('e'),
    ]);
    expect(log).toEqual([
      // the first transaction sent the marks with the run's statement and failed on z's: nothing of
      // it stayed, and the batch went again with its marks checked first (inbox marks sent ahead)
      'run a,b',
      'run a,b',
      'handle a (prepared)',
      'handle b (prepared)',
      'handle erased',
      'handle c',
      'handle erased',
      'run d,e',
      'handle d (prepared)',
      'handle e (prepared)',
    ]);
  });

  it('rolls a run back with its batch; one by one, the handlers then run without it', async () => {
    const log: string[] = [];
    await consumer(log, 'g').handleBatch([registered('f'), registered('g'), registered('h')]);
    expect(log).toEqual([
      'run f,g,h',
      'handle f (prepared)',
      'handle g (prepared)',
      // the batch failed: rolled back whole, then each event alone (g dead-lettered after its attempt)
      'handle f',
      'handle g',
      'handle h',
    ]);
    expect(await facts()).toEqual([]);
  });
});
