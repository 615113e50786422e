import { Logger } from '@nestjs/common';
import { Pool } from 'pg';

import { EVENTBUS_SCHEMA } from './eventbus-schema';

interface HandledUpTo {
  groupId: string;
  topics: readonly string[];
  partition: number;
  seq: bigint;
}

// The offsets of every group and partition a transport consumes, written together: one statement per
// interval for all of them. Each partition consumer used to write its own once a second, up to 48
// statements a second on the embedded platform (4 groups of 12 partitions), about 0.6 per payout.
// An offset is written within `intervalMs` of being handled (at once when 0), and at a consumer's
// stop (flush). A failed write keeps what it held for the next one; a write never moves an offset
// back (WHERE seq < EXCLUDED.seq), so an old value written late is harmless. A process killed before
// the write hands those records out again on restart, which consumers dedupe by event id.
export class OffsetWriter {
  private readonly log = new Logger('EmbeddedTransport');
  private readonly unwritten = new Map<string, HandledUpTo>();
  private timer?: NodeJS.Timeout;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly pool: Pool,
    private readonly intervalMs: number,
  ) {}

  // Every topic of the group moves together on the partition: handled up to `seq`. Resolves once
  // written when the interval is 0 (and rejects if that write failed), at once otherwise.
  handled(groupId: string, topics: readonly string[], partition: number, seq: bigint): Promise<void> {
    const key = `${groupId}\u0000${partition}`;
    const known = this.unwritten.get(key);
    if (!known || known.seq < seq) this.unwritten.set(key, { groupId, topics, partition, seq });
    if (this.intervalMs === 0) return this.flush();
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush().catch((err: unknown) => {
        this.log.warn(`offsets not written (${(err as Error).message}); retrying`);
        this.retryLater();
      });
    }, this.intervalMs);
    return Promise.resolve();
  }

  // Writes what was handled so far, after any write under way.
  flush(): Promise<void> {
    const write = this.writing.catch(() => undefined).then(() => this.writeUnwritten());
    this.writing = write;
    return write;
  }

  // The timer is dropped: a stopping transport flushes instead.
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private retryLater(): void {
    if (this.unwritten.size === 0 || this.timer) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.flush().catch(() => this.retryLater());
      },
      Math.max(this.intervalMs, 1),
    );
  }

  private async writeUnwritten(): Promise<void> {
    if (this.unwritten.size === 0) return;
    const batch = [...this.unwritten.values()];
    this.unwritten.clear();
    const rows = batch.flatMap((h) => h.topics.map((topic) => ({ ...h, topic })));
    try {
      await this.pool.query(
        `INSERT INTO ${EVENTBUS_SCHEMA}.offsets (group_id, topic, partition, seq)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::bigint[])
         ON CONFLICT (group_id, topic, partition)
         DO UPDATE SET seq = EXCLUDED.seq, updated_at = now() WHERE offsets.seq < EXCLUDED.seq`,
        [
          rows.map((r) => r.groupId),
          rows.map((r) => r.topic),
          rows.map((r) => r.partition),
          rows.map((r) => r.seq.toString()),
        ],
      );
    } catch (err) {
      // back, unless handled further meanwhile
      for (const h of batch) {
        const key = `${h.groupId}\u0000${h.partition}`;
        const now = this.unwritten.get(key);
        if (!now || now.seq < h.seq) this.unwritten.set(key, h);
      }
      throw err;
    }
  }
}
