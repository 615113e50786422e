import { Logger } from '@nestjs/common';
import { Client, Pool } from 'pg';

import { BatchGather } from '../batch-gather';
import { ConsumedRecord, SubscribeOptions } from '../event-transport';
import { AppendedRow, appendedEvents } from './appended-events';
import { EVENTBUS_SCHEMA } from './eventbus-schema';
import { OffsetWriter } from './offset-writer';
import { PartitionConsumer } from './partition-consumer';

export interface GroupSubscriptionOptions extends SubscribeOptions {
  pool: Pool;
  busId: string; // appends of other buses (another database's) are not this group's
  databaseUrl: string;
  clientId: string;
  partitions: number;
  pollIntervalMs: number;
  batchSize: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  offsets: OffsetWriter;
}

// One consumer group member. Like a Kafka group, a partition has one consumer at a time: this member
// owns the partitions whose session advisory lock it holds on its own connection. A member that dies
// drops its connection and with it its locks; the others pick those partitions up on their next tick.
export class GroupSubscription {
  private readonly log = new Logger('EmbeddedTransport');
  private readonly owned = new Map<number, PartitionConsumer>();
  private lockClient?: Client;
  private lockLost = false;
  private joined = false;
  private running = true;
  private timer?: NodeJS.Timeout;
  private tickInFlight?: Promise<void>;
  private lastSeenSeq = 0n;
  private stopListening?: () => void;
  // The partitions' batches woken by one append handled in one call (one consumer transaction): a
  // relay's move of a few events spreads them over as many partitions, and each partition's own
  // transaction was most of a consumer's statements per event (P1: payment-ingest 1.27 of 2.46
  // statements per order, in batches of 1.6 events).
  private readonly handleBatch?: (records: ConsumedRecord[]) => Promise<void>;

  constructor(private readonly opts: GroupSubscriptionOptions) {
    if (opts.handleBatch) {
      const gather = new BatchGather(opts.handleBatch, opts.batchSize, { mayWaitMs: opts.mayWaitMs });
      this.handleBatch = (records) => gather.submit(records);
    }
  }

  async start(): Promise<void> {
    const subscribed = new Set(this.opts.topics);
    this.stopListening = appendedEvents.on((appended) => {
      if (appended.busId !== this.opts.busId) return;
      const { records, maxSeq } = appended;
      if (maxSeq > this.lastSeenSeq) this.lastSeenSeq = maxSeq;
      // A complete append is offered to every partition's consumer, each taking its own rows (and
      // every consumer learning how far the log has gone); otherwise only the partitions that
      // received one of this group's topics are woken: a wake-up for another group's event would
      // cost a read that finds nothing.
      if (appended.rows && appended.previousMaxSeq !== undefined) {
        // split once here, not by each of the group's partition consumers
        const byPartition = new Map<number, AppendedRow[]>();
        for (const row of appended.rows) {
          if (!subscribed.has(row.topic)) continue;
          const rows = byPartition.get(row.partition);
          if (rows) rows.push(row);
          else byPartition.set(row.partition, [row]);
        }
        for (const [partition, consumer] of this.owned)
          consumer.offer(appended.previousMaxSeq, maxSeq, byPartition.get(partition) ?? []);
        return;
      }
      for (const { topic, partition } of records)
        if (subscribed.has(topic)) this.owned.get(partition)?.wake();
    });
    await this.claimPartitions();
    this.joined = true;
    this.schedule();
  }

  isJoined(): boolean {
    return this.joined;
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    this.stopListening?.();
    await this.tickInFlight;
    await this.releaseAll();
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.tickInFlight = this.tick().finally(() => this.schedule());
    }, this.opts.pollIntervalMs);
  }

  // The fallback for events appended by another process (no in-process wake-up reaches us then),
  // and the retry of partitions another member still held.
  private async tick(): Promise<void> {
    try {
      if (this.lockLost) await this.releaseAll();
      if (this.owned.size < this.opts.partitions) await this.claimPartitions();
      const { rows } = await this.opts.pool.query<{ seq: string | null }>(
        `SELECT max(seq)::text AS seq FROM ${EVENTBUS_SCHEMA}.log`,
      );
      const max = BigInt(rows[0]?.seq ?? 0);
      if (max > this.lastSeenSeq) {
        this.lastSeenSeq = max;
        for (const consumer of this.owned.values()) consumer.wake();
      }
    } catch (err) {
      this.log.warn(`${this.opts.groupId}: ${(err as Error).message}`);
    }
  }

  private async claimPartitions(): Promise<void> {
    if (!this.lockClient) {
      const client = new Client({
        connectionString: this.opts.databaseUrl,
        application_name: `${this.opts.clientId}-eventbus-member`,
      });
      client.on('error', (err) => {
        this.log.warn(`${this.opts.groupId}: membership connection lost (${err.message})`);
        this.lockLost = true;
      });
      await client.connect();
      this.lockClient = client;
      this.lockLost = false;
    }
    for (let partition = 0; partition < this.opts.partitions && this.running; partition++) {
      if (this.owned.has(partition)) continue;
      const { rows } = await this.lockClient.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock(hashtext($1), $2) AS ok',
        [this.opts.groupId, partition],
      );
      if (!rows[0]?.ok) continue;
      const consumer = new PartitionConsumer({
        pool: this.opts.pool,
        groupId: this.opts.groupId,
        topics: this.opts.topics,
        partition,
        handle: this.opts.handle,
        handleBatch: this.handleBatch,
        batchSize: this.opts.batchSize,
        retryBaseDelayMs: this.opts.retryBaseDelayMs,
        retryMaxDelayMs: this.opts.retryMaxDelayMs,
        idleTimeoutMs: Math.max(30_000, this.opts.pollIntervalMs * 10),
        offsets: this.opts.offsets,
      });
      this.owned.set(partition, consumer);
      consumer.start();
    }
  }

  private async releaseAll(): Promise<void> {
    const consumers = [...this.owned.values()];
    this.owned.clear();
    await Promise.all(consumers.map((c) => c.stop()));
    const client = this.lockClient;
    this.lockClient = undefined;
    await client?.end().catch(() => undefined); // closing the session releases its advisory locks
  }
}
