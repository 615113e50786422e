import { Logger } from '@nestjs/common';
import { Pool } from 'pg';

import { ConsumedRecord } from '../event-transport';
import { AppendedRow } from './appended-events';
import { EVENTBUS_SCHEMA } from './eventbus-schema';
import { OffsetWriter } from './offset-writer';

// A row of this partition's log, as a read returns it or an append hands it over.
type LogRow = Omit<AppendedRow, 'partition'>;

export interface PartitionConsumerOptions {
  pool: Pool;
  groupId: string;
  topics: string[];
  partition: number;
  handle: (record: ConsumedRecord) => Promise<void>;
  handleBatch?: (records: ConsumedRecord[]) => Promise<void>;
  batchSize: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  idleTimeoutMs: number; // a safety net; wake() is what normally ends the wait
  offsets: OffsetWriter; // the transport's: writes what the consumers handled, all in one statement
}

// One group's loop over one partition, in log order: a record is handed to the handler, and the
// group's offset moves past it only after the handler returned. A throwing handler gets the same
// record again after a backoff, and nothing behind it overtakes it (Kafka's per-partition order).
//
// The offset is written at most every commit interval (and when the consumer stops), not after
// every batch: under load that statement was one of every thirty of a payout. A process killed
// before the write hands the last interval's records out again on restart, which consumers dedupe
// by event id (their inbox) as they do Kafka's redeliveries; Kafka's consumers commit the same way.
// The transport writes the offsets of all its groups and partitions together (OffsetWriter).
export class PartitionConsumer {
  private readonly log = new Logger('EmbeddedTransport');
  private readonly stopped = new AbortController();
  private readonly offsets = new Map<string, bigint>(); // handled, per topic (written or about to be)
  private loop?: Promise<void>;
  private pending = false; // a wake-up arrived while we were not waiting
  private wakeWaiter?: () => void;
  // Appends made in this process are handed over with their rows (offer): while this consumer has
  // seen every row of the log up to `covered` (read, or handed over), an append that starts right
  // after it brings every row it has not seen, so its rows are taken from memory, not read again.
  // Any other append (another process's, one that arrived out of order, a publish) is a gap, closed
  // by reading the log as before. On the payout path that read was one statement in ten.
  private covered?: bigint;
  private handed: LogRow[] = [];
  private reading = false; // a read of the log is under way: appends offered meanwhile wait for it
  private offeredDuringRead: Array<{ previousMaxSeq: bigint; maxSeq: bigint; rows: readonly LogRow[] }> = [];

  constructor(private readonly opts: PartitionConsumerOptions) {}

  start(): void {
    this.loop ??= this.run();
  }

  wake(): void {
    this.pending = true;
    this.wakeWaiter?.();
  }

  // An append of this process, complete: every row of the log after previousMaxSeq up to maxSeq, of
  // which `mine` are this partition's rows of the group's topics (the group splits them).
  offer(previousMaxSeq: bigint, maxSeq: bigint, mine: readonly LogRow[]): void {
    if (this.reading) this.offeredDuringRead.push({ previousMaxSeq, maxSeq, rows: mine });
    else this.take(previousMaxSeq, maxSeq, mine);
  }

  private take(previousMaxSeq: bigint, maxSeq: bigint, mine: readonly LogRow[]): void {
    if (this.covered !== undefined && maxSeq <= this.covered) return; // a read saw it already
    if (this.covered !== undefined && this.covered === previousMaxSeq) {
      this.covered = maxSeq;
      if (mine.length > 0) {
        this.handed.push(...mine);
        this.wake();
      }
      return;
    }
    // A gap: rows may have been appended that this consumer was not handed. The log has them; what
    // was handed and not handled yet is read again with them, in order.
    this.covered = undefined;
    this.handed = [];
    this.wake();
  }

  // Waits for the record in hand (it is not committed if its handler has not returned by then),
  // then writes the offset of what was handled.
  async stop(): Promise<void> {
    this.stopped.abort();
    this.wakeWaiter?.();
    await this.loop;
    // before the group lets the partition go: its next owner starts from the written offset
    await this.opts.offsets
      .flush()
      .catch((err: unknown) =>
        this.log.warn(
          `${this.opts.groupId} partition ${this.opts.partition}: offset not written at stop (${(err as Error).message}); the last records will be handed out again`,
        ),
      );
  }

  private get running(): boolean {
    return !this.stopped.signal.aborted;
  }

  private async run(): Promise<void> {
    let failures = 0;
    let loaded = false;
    while (this.running) {
      try {
        if (!loaded) {
          await this.loadOffsets();
          loaded = true;
        }
        this.pending = false;
        const fetched = await this.drainBatch();
        failures = 0;
        // After a partial batch the log held nothing more when read; an append since then has set
        // `pending` (its wake-up follows its commit), so reading again now would find nothing.
        if (fetched < this.opts.batchSize && !this.pending) await this.idle();
      } catch (err) {
        failures++;
        const delay = this.backoff(failures);
        this.log.warn(
          `${this.opts.groupId} partition ${this.opts.partition}: ${(err as Error).message}; retrying in ${delay} ms`,
        );
        await this.pause(delay);
      }
    }
  }

  private async loadOffsets(): Promise<void> {
    const { rows } = await this.opts.pool.query<{ topic: string; seq: string }>(
      `SELECT topic, seq::text AS seq FROM ${EVENTBUS_SCHEMA}.offsets
       WHERE group_id = $1 AND partition = $2 AND topic = ANY($3)`,
      [this.opts.groupId, this.opts.partition, this.opts.topics],
    );
    for (const row of rows) this.offsets.set(row.topic, BigInt(row.seq));
  }

  // A topic the group never committed starts at the beginning of the log (Kafka's fromBeginning).
  private offsetOf(topic: string): bigint {
    return this.offsets.get(topic) ?? 0n;
  }

  private async drainBatch(): Promise<number> {
    const rows = this.handed.length > 0 ? this.handed.splice(0, this.opts.batchSize) : await this.read();
    // One offset commit per batch, not per record: a crash before it redelivers the batch's handled
    // records, which consumers dedupe by event id (their inbox), as they do Kafka's redeliveries.
    const last = rows.at(-1);
    if (!last) return 0;
    // A record at or below its topic's offset was handled before, under an offset ahead of the others.
    const fresh = rows
      .filter((row) => BigInt(row.seq) > this.offsetOf(row.topic))
      .map((r) => this.recordOf(r));
    if (this.opts.handleBatch) {
      if (fresh.length > 0 && !(await this.deliverBatch(fresh))) return rows.length; // stopping: left for the next run
      await this.commit(BigInt(last.seq));
      return rows.length;
    }
    let done: bigint | undefined;
    for (const row of rows) {
      const seq = BigInt(row.seq);
      if (seq > this.offsetOf(row.topic) && !(await this.deliver(this.recordOf(row)))) break; // stopping
      done = seq;
    }
    if (done !== undefined) await this.commit(done);
    return rows.length;
  }

  // The next rows of this partition from the log, and with them the log's last seq in the same
  // snapshot: when the rows are not a full batch, this consumer has now seen the log up to it.
  private async read(): Promise<LogRow[]> {
    const from = this.opts.topics.reduce(
      (min, t) => (this.offsetOf(t) < min ? this.offsetOf(t) : min),
      2n ** 62n,
    );
    this.reading = true;
    this.handed = [];
    let result: Array<LogRow & { top: string; n: string | null }>;
    try {
      // ORDER BY the bigint, not seq: that is text, and '10' sorts before '9'
      ({ rows: result } = await this.opts.pool.query<LogRow & { top: string; n: string | null }>(
        `SELECT top.top, r.n, r.seq, r.topic, r.key, r.value, r.headers
         FROM (SELECT coalesce(max(seq), 0)::text AS top FROM ${EVENTBUS_SCHEMA}.log) AS top
         LEFT JOIN LATERAL (
           SELECT seq AS n, seq::text AS seq, topic, key, value, headers FROM ${EVENTBUS_SCHEMA}.log
           WHERE partition = $1 AND seq > $2 AND topic = ANY($3) ORDER BY log.seq LIMIT $4
         ) AS r ON true
         ORDER BY r.n`,
        [this.opts.partition, from.toString(), this.opts.topics, this.opts.batchSize],
      ));
    } catch (err) {
      this.covered = undefined;
      this.offeredDuringRead = [];
      throw err;
    } finally {
      this.reading = false;
    }
    const rows: LogRow[] = result
      .filter((r) => r.n !== null)
      .map(({ seq, topic, key, value, headers }) => ({ seq, topic, key, value, headers }));
    this.covered = rows.length < this.opts.batchSize ? BigInt(result[0]?.top ?? 0) : undefined;
    const offered = this.offeredDuringRead;
    this.offeredDuringRead = [];
    for (const o of offered) this.take(o.previousMaxSeq, o.maxSeq, o.rows);
    return rows;
  }

  private recordOf(row: LogRow): ConsumedRecord {
    return {
      topic: row.topic,
      partition: this.opts.partition,
      offset: row.seq,
      key: row.key,
      value: row.value,
      headers: row.headers,
    };
  }

  // The batch as a whole, again after a backoff if it throws (the consumer dedupes what it had
  // handled already), so nothing behind a failing record overtakes it.
  private async deliverBatch(records: ConsumedRecord[]): Promise<boolean> {
    const handleBatch = this.opts.handleBatch;
    if (!handleBatch) return false;
    for (let attempt = 1; this.running; attempt++) {
      try {
        await handleBatch(records);
        return true;
      } catch (err) {
        const delay = this.backoff(attempt);
        this.log.warn(
          `${this.opts.groupId} ${records.length} record(s) from ${records[0]?.topic}@${this.opts.partition}:${records[0]?.offset} ` +
            `failed (${(err as Error).message}); redelivering in ${delay} ms`,
        );
        await this.pause(delay);
      }
    }
    return false;
  }

  private async deliver(record: ConsumedRecord): Promise<boolean> {
    for (let attempt = 1; this.running; attempt++) {
      try {
        await this.opts.handle(record);
        return true;
      } catch (err) {
        const delay = this.backoff(attempt);
        this.log.warn(
          `${this.opts.groupId} ${record.topic}@${this.opts.partition}:${record.offset} handler failed ` +
            `(${(err as Error).message}); redelivering in ${delay} ms`,
        );
        await this.pause(delay);
      }
    }
    return false;
  }

  // Every subscribed topic moves together: all of them are handled up to `seq` on this partition,
  // because the loop reads them interleaved in log order. Written by the transport's offset writer.
  private async commit(seq: bigint): Promise<void> {
    for (const topic of this.opts.topics) if (this.offsetOf(topic) < seq) this.offsets.set(topic, seq);
    await this.opts.offsets.handled(this.opts.groupId, this.opts.topics, this.opts.partition, seq);
  }

  private backoff(attempt: number): number {
    return Math.min(this.opts.retryMaxDelayMs, this.opts.retryBaseDelayMs * 2 ** Math.min(attempt - 1, 20));
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeWaiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.opts.idleTimeoutMs);
      this.wakeWaiter = done;
      if (this.pending || !this.running) done();
    });
  }

  // Interrupted only by stop(), not by new events: a failing record keeps its backoff.
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.stopped.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.stopped.signal.addEventListener('abort', done);
      if (!this.running) done();
    });
  }
}
