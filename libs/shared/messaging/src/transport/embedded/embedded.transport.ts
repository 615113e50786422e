import { Logger } from '@nestjs/common';
import { Pool } from 'pg';

import { PreparingClient } from '@onramp/persistence';

import { EventTransport, OutboxMover, SubscribeOptions, TransportRecord } from '../event-transport';
import { partitionFor } from '../murmur2-partitioner';
import { appendedEvents } from './appended-events';
import { BUS_ID, ensureEventbusSchema, EVENTBUS_SCHEMA } from './eventbus-schema';
import { GroupSubscription } from './group-subscription';
import { OffsetWriter } from './offset-writer';
import { moveOutboxRows } from './outbox-move';

export interface EmbeddedTransportOptions {
  databaseUrl: string;
  clientId: string;
  partitions: number; // only when the bus is created; see ensureEventbusSchema
  pollIntervalMs?: number;
  batchSize?: number;
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  commitIntervalMs?: number; // how often a group's handled offsets are written (0: after every batch)
  retentionHours?: number;
  preparedStatements?: boolean; // repeated statements prepared once per connection; on unless false
}

// Kafka's contract without a broker, for the one-process `npm start`: a durable log in Postgres
// (schema `eventbus`), key -> partition as Kafka hashes it, per-partition order, one offset per
// consumer group committed only after the handler returned (at-least-once; written once a second,
// like Kafka's consumers), `<topic>.dlq` just another topic. Nothing lives only in memory, so a
// SIGKILL loses nothing: what was appended is in the log, and what a group had not committed is
// handed out again on restart (consumers dedupe it by event id).
export class EmbeddedTransport implements EventTransport {
  private readonly log = new Logger('EmbeddedTransport');
  private readonly subscriptions: GroupSubscription[] = [];
  private pool?: Pool;
  private offsets?: OffsetWriter;
  private partitions = 0;
  private busId = '';

  constructor(private readonly opts: EmbeddedTransportOptions) {}

  async connect(): Promise<void> {
    if (this.pool) return;
    const pool = new Pool({
      connectionString: this.opts.databaseUrl,
      max: 5,
      application_name: `${this.opts.clientId}-eventbus`,
      // the log reads and offset writes repeat: prepared once per connection, as the services' own
      ...(this.opts.preparedStatements === false ? {} : { Client: PreparingClient }),
    });
    pool.on('error', (err) => this.log.warn(`idle connection failed: ${err.message}`));
    try {
      ({ partitions: this.partitions, busId: this.busId } = await ensureEventbusSchema(pool, {
        partitions: this.opts.partitions,
        retentionHours: this.opts.retentionHours ?? 7 * 24,
      }));
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    if (this.partitions !== this.opts.partitions) {
      this.log.warn(`the event bus keeps the ${this.partitions} partitions it was created with`);
    }
    this.pool = pool;
  }

  // One transaction under a lock, so sequence numbers become visible in order: a consumer that has
  // read up to seq N can never later see a smaller seq commit behind it.
  async publish(records: TransportRecord[]): Promise<void> {
    if (records.length === 0) return;
    const client = await this.connected().connect();
    const partitions = records.map((r) => partitionFor(r.key, this.partitions));
    let maxSeq: bigint;
    try {
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('eventbus.append'))`);
      const { rows } = await client.query<{ seq: string }>(
        `INSERT INTO ${EVENTBUS_SCHEMA}.log (topic, partition, key, value, headers)
         SELECT topic, partition, key, value, headers
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::jsonb[])
           WITH ORDINALITY AS r(topic, partition, key, value, headers, ord)
         ORDER BY ord
         RETURNING seq::text AS seq`,
        [
          records.map((r) => r.topic),
          partitions,
          records.map((r) => r.key),
          records.map((r) => r.value),
          records.map((r) => JSON.stringify(r.headers)),
        ],
      );
      await client.query('COMMIT');
      maxSeq = rows.reduce((max, r) => (BigInt(r.seq) > max ? BigInt(r.seq) : max), 0n);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
    appendedEvents.emit({
      busId: this.busId,
      records: records.map((r, i) => ({ topic: r.topic, partition: partitions[i] ?? 0 })),
      maxSeq,
    });
  }

  // Offered only when the relay's database is this bus's: otherwise the move would read another
  // database's outbox (or none) and the relay must publish instead.
  async outboxMover(relayDatabase: (sql: string) => Promise<unknown[]>): Promise<OutboxMover | undefined> {
    this.connected();
    let rows: unknown[];
    try {
      rows = await relayDatabase(`SELECT ${BUS_ID} AS "busId" FROM ${EVENTBUS_SCHEMA}.meta`);
    } catch (err) {
      if (isMissingRelation(err)) return undefined; // no bus in the relay's database
      throw err;
    }
    if ((rows[0] as { busId?: string } | undefined)?.busId !== this.busId) return undefined;
    return { move: (schema, limit) => this.moveFromOutbox(schema, limit) };
  }

  private async moveFromOutbox(schema: string, limit: number): Promise<number> {
    const client = await this.connected().connect();
    let moved;
    try {
      moved = await moveOutboxRows(client, { schema, limit, partitions: this.partitions });
    } finally {
      client.release();
    }
    if (moved.moved > 0)
      appendedEvents.emit({
        busId: this.busId,
        records: moved.records,
        maxSeq: moved.maxSeq,
        previousMaxSeq: moved.previousMaxSeq,
        rows: moved.rows,
      });
    return moved.moved;
  }

  async subscribe(opts: SubscribeOptions): Promise<void> {
    const subscription = new GroupSubscription({
      ...opts,
      pool: this.connected(),
      busId: this.busId,
      databaseUrl: this.opts.databaseUrl,
      clientId: this.opts.clientId,
      partitions: this.partitions,
      pollIntervalMs: this.opts.pollIntervalMs ?? 1000,
      batchSize: this.opts.batchSize ?? 100,
      retryBaseDelayMs: this.opts.retryBaseDelayMs ?? 200,
      retryMaxDelayMs: this.opts.retryMaxDelayMs ?? 30_000,
      offsets: (this.offsets ??= new OffsetWriter(this.connected(), this.opts.commitIntervalMs ?? 1000)),
    });
    this.subscriptions.push(subscription);
    await subscription.start();
  }

  isConsuming(): boolean {
    return this.subscriptions.every((s) => s.isJoined());
  }

  async disconnect(): Promise<void> {
    const subscriptions = this.subscriptions.splice(0);
    await Promise.allSettled(subscriptions.map((s) => s.stop()));
    this.offsets?.stop();
    await this.offsets?.flush().catch(() => undefined); // the consumers' stops wrote theirs already
    this.offsets = undefined;
    const pool = this.pool;
    this.pool = undefined;
    await pool?.end().catch(() => undefined);
  }

  private connected(): Pool {
    if (!this.pool) throw new Error('EmbeddedTransport: connect() first');
    return this.pool;
  }
}

// undefined_table, invalid_schema_name (a pg error, or TypeORM's QueryFailedError carrying its code)
function isMissingRelation(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === '42P01' || code === '3F000';
}
