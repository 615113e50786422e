import { Logger } from '@nestjs/common';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';

import { metrics } from '@onramp/observability';

import { EventTransport, OutboxMover, relayLockKey, TransportRecord } from '../transport/event-transport';
import { WakeOrPoll } from '../wake/wake-or-poll';

// Rows per relay round. Measured with `npm run bench -- --only P5` (embedded, quiet machine, 5,000
// events, the raw publisher in batches of the same size): 200 gave 7-8k events/s, 1,000 gave
// 17-20k; the node process was idle in both (the cost is per round, in Postgres), so bigger rounds
// are what helps. A burst of a thousand events is still well under Kafka's request size.
export const OUTBOX_RELAY_BATCH = 1000;

// Batches per Kafka round (one transaction): the next batch is read while the broker has the last.
// A crash or a failed send mid-round sends the round's acknowledged batches again (consumers dedupe),
// so this bounds those duplicates and how long the round holds its lock.
export const OUTBOX_RELAY_BATCHES_PER_ROUND = 4;

// A round that expected rows and moved none (another replica's relay held the lock, or a writer had
// not committed yet) looks again this soon, and then at every idle tick until it moves rows or finds
// none: not only at the next safety-net look.
const RECHECK_MS = 25;

export interface OutboxRelayOptions {
  schema: string;
  batchSize?: number;
  batchesPerRound?: number; // Kafka relay only (the embedded move has no send to hide a read behind)
  idleDelayMs?: number; // how often an idle relay checks, in memory, whether a writer of this process prepared an event
  // How often an idle relay looks at the outbox in the database all the same: the safety net for rows
  // nobody told it about (a process that died after its commit, another writer). Writers and consumers
  // wake the relay after their commits; a lock held by another relay is tried again within RECHECK_MS.
  safetyNetMs?: number;
  // How many events the service's outbox writer has prepared so far (OutboxWriter.prepared): a round
  // that finds it moved since the last round began takes at once instead of looking first.
  eventsPrepared?: () => number;
}

// Publishes committed outbox rows in seq order and deletes them once sent: every row in the outbox
// is waiting to be published (deleting costs Postgres less than marking a row published, which
// rewrote the row and its index entries; docs/performance-journal.md). One relay per schema works at a time
// (advisory lock), so events of one order never overtake each other. A crash between publish and
// delete re-publishes: consumers are idempotent by event id. When the transport's log is in the
// relay's own database (embedded), the transport moves the rows itself (OutboxMover): one
// statement, appended and deleted in one commit, the payloads never read into the process.
export class OutboxRelay {
  private readonly log = new Logger(OutboxRelay.name);
  private readonly loop: WakeOrPoll;
  private readonly batchSize: number;
  private readonly batchesPerRound: number;
  private unregisterMetrics?: () => void;
  private moverLookup?: Promise<OutboxMover | undefined>;
  private backlog = false; // the last round was full: the next one need not look first
  private preparedAtLastRound?: number; // eventsPrepared() when the last round began
  private lastFull = false; // the last batch drainOnce took was full
  private lastLookSawRows = false; // drainOnce's look found rows waiting
  private nudged = false; // nudge() since the last round began
  private recheck = false; // the last round expected rows and moved none
  private lastLookAt = 0; // when a round last asked the database (Date.now())
  private soon?: ReturnType<typeof setTimeout>; // a nudgeWithin() waiting for its moment
  private readonly safetyNetMs: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: EventTransport,
    private readonly opts: OutboxRelayOptions,
  ) {
    this.batchSize = opts.batchSize ?? OUTBOX_RELAY_BATCH;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1)
      throw new Error(`outbox relay: bad batch size ${this.batchSize}`);
    this.batchesPerRound = opts.batchesPerRound ?? OUTBOX_RELAY_BATCHES_PER_ROUND;
    if (!Number.isInteger(this.batchesPerRound) || this.batchesPerRound < 1)
      throw new Error(`outbox relay: bad batches per round ${this.batchesPerRound}`);
    this.safetyNetMs = opts.safetyNetMs ?? 1000;
    this.loop = new WakeOrPoll({
      round: () => this.round(),
      pollMs: opts.idleDelayMs ?? 100,
      failureDelayMs: (failures) => Math.min(5000, 200 * 2 ** Math.min(failures, 5)),
      onFailure: (err) =>
        this.log.warn(`outbox relay (${this.opts.schema}) failed, retrying: ${(err as Error).message}`),
    });
  }

  start(): void {
    this.loop.start();
    this.unregisterMetrics?.();
    this.unregisterMetrics = metrics.addCollector(`outbox:${this.opts.schema}`, () => this.lagMetrics());
  }

  // Outbox lag: events committed but not yet on the broker, and how long the oldest has waited.
  private async lagMetrics() {
    const [row] = await this.dataSource.query<Array<{ n: number; age: number | null }>>(
      `SELECT count(*)::int AS n, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
       FROM "${this.opts.schema}"."outbox"`,
    );
    const labels = { schema: this.opts.schema };
    return [
      {
        name: 'messaging_outbox_unpublished',
        help: 'Outbox events committed but not yet published to the broker.',
        type: 'gauge' as const,
        samples: [{ labels, value: row?.n ?? 0 }],
      },
      {
        name: 'messaging_outbox_oldest_unpublished_seconds',
        help: 'Age of the oldest unpublished outbox event (0 when none waits).',
        type: 'gauge' as const,
        samples: [{ labels, value: row?.age ?? 0 }],
      },
    ];
  }

  // A full batch says more may be waiting; after a partial one the outbox was empty when read, and a
  // commit since then has woken the loop (a wake-up during a round is kept), so another round would
  // only read nothing. An idle tick asks the database only when a writer of this process prepared an
  // event since the last round (even one that forgot its wake-up), or once per safety-net interval:
  // the idle platform's five relays looked ten times a second each, about one statement per payout
  // under load (docs/performance-journal.md).
  private async round(): Promise<{ busy: boolean; recheckMs?: number }> {
    const nudged = this.nudged;
    this.nudged = false;
    const prepared = this.preparedSinceLastRound();
    if (
      !this.backlog &&
      !prepared &&
      !nudged &&
      !this.recheck &&
      Date.now() - this.lastLookAt < this.safetyNetMs
    ) {
      return { busy: false };
    }
    this.lastLookAt = Date.now();
    this.recheck = true; // kept if the round fails: the next one, after the backoff, looks again
    const moved = await this.drainOnce(this.backlog || prepared);
    const expected = this.backlog || prepared || this.lastLookSawRows;
    this.backlog = this.lastFull;
    this.recheck = moved === 0 && expected;
    if (this.backlog) return { busy: true };
    return this.recheck ? { busy: false, recheckMs: RECHECK_MS } : { busy: false };
  }

  // Whether a writer of this process prepared an event since the last round began (before its
  // commit): then this round takes at once. A round that began between a writer's prepare and its
  // commit takes nothing, and the writer's wake-up after the commit brings another, which looks; a
  // rolled-back writer costs one empty take instead of a look. Only a round trip is at stake.
  private preparedSinceLastRound(): boolean {
    const prepared = this.opts.eventsPrepared?.();
    const moved = prepared !== undefined && prepared !== this.preparedAtLastRound;
    this.preparedAtLastRound = prepared;
    return moved;
  }

  // Called after a commit that appended to the outbox: the event goes out now, not at the next poll.
  nudge(): void {
    this.clearSoon();
    this.nudged = true;
    this.loop.wake();
  }

  // nudge() for an event nobody waits on: it goes out within `ms`, with whatever else was committed
  // meanwhile, in one round. Order creation uses it: at 1,500 orders/s a round per commit was a
  // third of the orders service's statements per order, for an event whose one consumer gathers 25 ms
  // of them anyway. A nudge() meanwhile (an event someone waits on) takes it along at once.
  nudgeWithin(ms: number): void {
    if (this.soon) return; // the first one's moment comes sooner
    this.soon = setTimeout(() => {
      this.soon = undefined;
      this.nudge();
    }, ms);
  }

  private clearSoon(): void {
    if (!this.soon) return;
    clearTimeout(this.soon);
    this.soon = undefined;
  }

  async stop(): Promise<void> {
    this.clearSoon();
    this.unregisterMetrics?.();
    this.unregisterMetrics = undefined;
    await this.loop.stop();
  }

  // Returns how many events went out.
  async drainOnce(backlog = false): Promise<number> {
    this.lastFull = false;
    this.lastLookSawRows = false;
    // Most rounds are the safety-net poll finding nothing: one statement instead of BEGIN, lock,
    // read, COMMIT. It reads the first entry of the primary key rather than asking EXISTS, which
    // Postgres answers with a scan of the table: until vacuum runs, a drained outbox is full of
    // deleted rows, whose index entries the first scan marks dead and later ones skip (3 ms after a
    // burst of 120,000 rows, against 20-30 ms a sequential scan every time). A row committed after
    // this look is found the same way a row committed after the read below always was: by its
    // writer's wake-up or the next poll.
    // After a full round more rows are likely waiting, and the look would only cost a round trip;
    // so after a writer of this process prepared an event (preparedSinceLastRound).
    // Not after a wake-up: consumers wake the relay after every commit, also when their handler
    // wrote no event (webhook-dispatch's, say), and a look is one round trip where an empty round
    // is two (measured: 0.2 empty rounds per payout more in webhook-dispatch alone, P2 embedded).
    if (!backlog) {
      // The parameter (every seq is above 0) makes the look a prepared statement, planned once per
      // connection: as plain text Postgres planned it at every look, for longer than it ran (P2:
      // 0.14 against 0.03 ms). A bound on seq rather than on LIMIT, whose generic plan would be
      // costed for a tenth of the table and lose to a custom plan every time.
      const [row] = await this.dataSource.query<Array<{ waiting: boolean }>>(
        `SELECT (SELECT seq FROM "${this.opts.schema}"."outbox" WHERE seq > $1 ORDER BY seq LIMIT 1) IS NOT NULL AS waiting`,
        [0],
      );
      if (!row?.waiting) return 0;
      this.lastLookSawRows = true;
    }
    const mover = await this.outboxMover();
    if (mover) {
      const moved = await mover.move(this.opts.schema, this.batchSize);
      this.lastFull = moved >= this.batchSize;
      return moved;
    }
    const { sent, full } = await this.publishRound();
    this.lastFull = full;
    return sent;
  }

  // One Kafka round: BEGIN with the relay's lock and the first batch taken out of the outbox (deleted,
  // in seq order), then the batch sent; while the broker has it, the next batch is taken in the same
  // transaction, and it is sent only once the broker acknowledged the one before (so a key's events
  // reach the broker in seq order, and a failed send is never overtaken). Up to `batchesPerRound`
  // batches, then one COMMIT: a row is deleted only with every send of its round acknowledged. A
  // failed send rolls the whole round back and its rows wait for the next one (the batches already
  // acknowledged go out again, before anything later: consumers dedupe by event id); a crash before
  // the commit sends the round again the same way. Profiled in P5 (docs/performance-journal.md, "Session of
  // 2026-11-28 (evening)"): the take was 6-20 ms of each 35-70 ms batch, now hidden behind the send.
  private async publishRound(): Promise<{ sent: number; full: boolean }> {
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      const outbox = `${client.escapeIdentifier(this.opts.schema)}."outbox"`;
      // Several statements in one simple query: values inlined (escaped, or an integer checked at
      // construction). The lock is taken once, before the scan (an uncorrelated subquery); without
      // it nothing is taken. The batch is every row up to the n-th committed one: one range of the
      // primary key, read in the statement's one snapshot (so exactly the first n rows it sees; a
      // row committed later is not seen, whatever its seq). The range is an index scan, where a join
      // with the batch hashed the whole outbox, rows deleted since the last vacuum included.
      const take = (locked: string) =>
        `taken AS (
           DELETE FROM ${outbox} o
           WHERE o.seq <= (SELECT max(seq) FROM (
             SELECT seq FROM ${outbox} WHERE ${locked} ORDER BY seq LIMIT ${this.batchSize}
           ) AS batch)
           RETURNING o.seq, o.topic, o.key, o.envelope::text AS value, o.headers
         )
         SELECT topic, key, value, headers FROM taken ORDER BY seq`;
      const [, first] = (await client.query(
        `BEGIN;
         WITH lock AS (
           SELECT pg_try_advisory_xact_lock(hashtext(${client.escapeLiteral(relayLockKey(this.opts.schema))})) AS locked
         ), ${take('(SELECT locked FROM lock)')}`,
      )) as unknown as [unknown, { rows: TransportRecord[] }];
      let rows = first.rows;
      let sent = 0;
      let full = false; // the last batch taken was full: more may be waiting
      for (let batch = 1; rows.length > 0; batch++) {
        full = rows.length >= this.batchSize;
        const next =
          full && batch < this.batchesPerRound
            ? (client.query(`WITH ${take('true')}`) as Promise<{ rows: TransportRecord[] }>)
            : undefined;
        next?.catch(() => undefined); // read below: not an unhandled rejection while the send runs
        try {
          await this.transport.publish(rows);
        } catch (err) {
          await next?.catch(() => undefined); // the connection is free for the ROLLBACK after it
          throw err;
        }
        sent += rows.length;
        if (!next) break;
        rows = (await next).rows;
        full = rows.length >= this.batchSize;
      }
      await client.query('COMMIT');
      return { sent, full };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  // Asked once; a failed question (the database down) is asked again next round.
  private outboxMover(): Promise<OutboxMover | undefined> {
    const offer = this.transport.outboxMover?.bind(this.transport);
    if (!offer) return Promise.resolve(undefined);
    this.moverLookup ??= offer((sql) => this.dataSource.query(sql)).then(
      (mover) => {
        if (!mover)
          this.log.warn(
            `outbox relay (${this.opts.schema}): the event log is not in this database; publishing`,
          );
        return mover;
      },
      (err: unknown) => {
        this.moverLookup = undefined;
        throw err;
      },
    );
    return this.moverLookup;
  }
}
