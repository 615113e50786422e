import { randomUUID } from 'node:crypto';

import { Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';

import { Topics } from '@onramp/contracts';

import { consumedEvent } from '../testing/consumed-event';
import { openMessagingTestDatabase } from '../testing/messaging-test-database';
import { EmbeddedTransport } from '../transport/embedded/embedded.transport';
import { ConsumedRecord } from '../transport/event-transport';
import { EventConsumer } from './event-consumer';

const SCHEMA = 'inboxmarks';
const FACTS = `"${SCHEMA}"."facts"`;

// Real Postgres: a consumer transaction sends its inbox marks with the handler's first statement
// (or its COMMIT), counting every event as new; a redelivery fails that transaction and is found
// by the classic one that follows, so the handler's writes are never made twice.
describe('EventConsumer inbox marks sent ahead of the handler (integration)', () => {
  let ds: DataSource;
  let bus: EmbeddedTransport;
  let offset = 0;

  beforeAll(async () => {
    const db = await openMessagingTestDatabase(SCHEMA, [`CREATE TABLE ${FACTS} (name TEXT NOT NULL)`]);
    ds = db.ds;
    bus = new EmbeddedTransport({
      databaseUrl: db.url,
      clientId: 'marks',
      partitions: 1,
      pollIntervalMs: 100,
    });
    await bus.connect();
  });

  afterAll(async () => {
    await bus?.disconnect();
    await ds?.destroy();
  });

  beforeEach(() => ds.query(`TRUNCATE ${FACTS}`));
  afterEach(() => jest.restoreAllMocks());

  const registered = (name: string, id?: string): ConsumedRecord =>
    consumedEvent(
      Topics.KycUserRegistered,
      { userUuid: randomUUID(), status: 'APPROVED', holderName: name },
      offset++,
      id,
    );

  const facts = async (): Promise<string[]> =>
    (await ds.query(`SELECT name FROM ${FACTS} ORDER BY name`)).map((r: { name: string }) => r.name);

  // Records each call, and writes the event's name as a fact; `swallow`: a handler that catches its
  // statement's error and returns (its transaction is then aborted).
  const consumer = (calls: string[], opts: { swallow?: boolean; locks?: boolean } = {}): EventConsumer => {
    const c = new EventConsumer(ds, bus, { schema: SCHEMA, groupId: `g-${randomUUID()}`, maxAttempts: 1 });
    c.on(
      Topics.KycUserRegistered,
      async (e, manager: EntityManager) => {
        const name = e.data.holderName ?? '';
        calls.push(name);
        try {
          await manager.query(`INSERT INTO ${FACTS} (name) VALUES ($1)`, [name]);
        } catch (err) {
          if (!opts.swallow) throw err;
        }
      },
      opts.locks ? { locksFirst: (e) => [{ form: 'text', name: `user:${e.data.userUuid}` }] } : {},
    );
    return c;
  };

  it('sends a new event its mark with the handler statement: that statement and the COMMIT', async () => {
    const sent: string[] = [];
    const query = jest.spyOn(PostgresQueryRunner.prototype, 'query');
    const c = consumer([]);
    const record = registered('ada');
    await c.handle(record);
    for (const [text] of query.mock.calls) sent.push(String(text).trim().split(/\s+/)[0] ?? '');
    expect(sent).toEqual(['INSERT', 'COMMIT']); // the handler's INSERT, with BEGIN and the mark ahead of it
    expect(String(query.mock.calls[0]?.[0])).toContain(FACTS);
    expect(await facts()).toEqual(['ada']);
    const id = JSON.parse(record.value).id as string;
    const [mark] = await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."inbox" WHERE event_id = $1`, [
      id,
    ]);
    expect(mark.n).toBe(1);
  });

  it('does nothing again for a redelivered event, alone or in a batch, and warns of nothing', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const calls: string[] = [];
    const c = consumer(calls);
    const first = registered('bob');
    await c.handle(first);
    await c.handle(first); // redelivered alone
    await c.handleBatch([registered('cy'), first, registered('dee')]); // and within a batch
    expect(await facts()).toEqual(['bob', 'cy', 'dee']);
    // the redelivery's handler started in the transaction that failed on its mark, not in the rerun
    expect(calls.filter((n) => n === 'bob')).toHaveLength(2);
    expect(warn).not.toHaveBeenCalled();
  });

  it('finds a redelivery when the handler swallowed its statement failure', async () => {
    const calls: string[] = [];
    const c = consumer(calls, { swallow: true });
    const first = registered('eve');
    await c.handle(first);
    await c.handle(first);
    expect(await facts()).toEqual(['eve']);
  });

  it('takes the locks first and marks with them, new events and redeliveries alike', async () => {
    const c = consumer([], { locks: true });
    const first = registered('fay');
    await c.handleBatch([first, registered('gus')]);
    await c.handleBatch([registered('hal'), first]);
    await c.handle(first);
    expect(await facts()).toEqual(['fay', 'gus', 'hal']);
  });

  it('sends the mark with the COMMIT of a handler that sends no statement', async () => {
    const c = new EventConsumer(ds, bus, { schema: SCHEMA, groupId: `g-${randomUUID()}`, maxAttempts: 1 });
    let runs = 0;
    c.on(Topics.KycUserRegistered, async () => {
      runs++;
    });
    const record = registered('ivy');
    await c.handle(record);
    await c.handle(record);
    const id = JSON.parse(record.value).id as string;
    const [mark] = await ds.query(`SELECT count(*)::int AS n FROM "${SCHEMA}"."inbox" WHERE event_id = $1`, [
      id,
    ]);
    expect(mark.n).toBe(1);
    expect(runs).toBe(2); // the redelivery's first, failed, transaction; the classic one skips it
  });
});
