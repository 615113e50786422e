import { Logger } from '@nestjs/common';
import { Admin, Consumer, Kafka, KafkaMessage, logLevel, Partitioners, Producer, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';

import { ConsumedRecord, EventTransport, SubscribeOptions, TransportRecord } from './event-transport';
import { BatchGather } from './batch-gather';
import { fixKafkaEmptyBatches } from './kafka-empty-batches-fix';
import { fixKafkaFetchSessions } from './kafka-fetch-sessions';
import { fixKafkaRequestQueue } from './kafka-request-queue-fix';
import { missingTopics, provisionTopics } from './kafka-topics';

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  partitions: number;
  replicationFactor: number;
  sessionTimeoutMs?: number; // default 30 s
  // How often a consumer commits the offsets of what it handled (default 1 s); 0: after every batch,
  // before the next fetch (kafkajs' autoCommit). See OffsetCommits.
  commitIntervalMs?: number;
  ssl?: ConnectionOptions | boolean;
  sasl?: SASLOptions;
  // default true: create missing topics at connect; false (production): wait for `kafka:topics`
  createTopics?: boolean;
  topicsWaitMs?: number; // with createTopics false: how long to wait for the topics (default 300 s)
}

interface Subscription {
  consumer?: Consumer;
  commits?: OffsetCommits;
  joined: boolean;
}

// Offsets committed every `intervalMs` instead of after every batch. kafkajs' autoCommit sends an
// OffsetCommit after each handled batch and fetches again only once it is answered: a broker round
// trip (25-45 ms per commit under P2's load) in series on every consumer's path, and about half of
// the requests the broker serves. Offsets only say where a new owner of the partition starts after a
// rebalance or a restart; events handled but not yet committed then come again, and the inbox
// absorbs them (every consumer is idempotent), so committing later costs redeliveries after a crash,
// never a lost event: an offset is recorded only once its batch was handled.
class OffsetCommits {
  // next offset to read, by topic and partition, handled but not yet committed
  private readonly pending = new Map<string, { topic: string; partition: number; offset: string }>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly consumer: Consumer,
    intervalMs: number,
    private readonly onError: (err: Error) => void,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  handled(topic: string, partition: number, lastOffset: string): void {
    const offset = (BigInt(lastOffset) + 1n).toString();
    this.pending.set(`${topic}|${partition}`, { topic, partition, offset });
  }

  // After a rebalance: what was handled of partitions now owned by another member is not committed
  // (its new owner commits its own progress; a late commit of ours could only move it back).
  assigned(assignment: Record<string, number[]>): void {
    for (const [key, p] of this.pending) {
      if (!assignment[p.topic]?.includes(p.partition)) this.pending.delete(key);
    }
  }

  flush(): Promise<void> {
    this.flushing ??= this.commit().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async commit(): Promise<void> {
    const batch = [...this.pending.entries()];
    if (batch.length === 0) return;
    try {
      await this.consumer.commitOffsets(batch.map(([, p]) => p));
      // a newer offset recorded meanwhile stays for the next round
      for (const [key, p] of batch) if (this.pending.get(key)?.offset === p.offset) this.pending.delete(key);
    } catch (err) {
      this.onError(err as Error); // kept, and tried again at the next interval
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

const DISCONNECT_TIMEOUT_MS = 10_000;
// Records per handleBatch call (one consumer transaction) out of a fetched batch, which can hold
// thousands after a backlog: a transaction stays short and a heartbeat goes out between chunks.
const KAFKA_HANDLE_CHUNK = 100;

function consumedRecord(topic: string, partition: number, message: KafkaMessage): ConsumedRecord {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(message.headers ?? {})) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  }
  return {
    topic,
    partition,
    offset: message.offset,
    key: message.key?.toString() ?? '',
    value: message.value?.toString() ?? '',
    headers,
  };
}

export class KafkaTransport implements EventTransport {
  private readonly log = new Logger(KafkaTransport.name);
  private readonly kafka: Kafka;
  private producer: Producer;
  private producerConnected: Promise<void> | undefined;
  // One per subscribe(): its current consumer (a fresh one after kafkajs gave up on the last) and
  // whether the group was ever joined. A replacement counts: the first consumer may crash before it joined.
  private readonly subscriptions: Subscription[] = [];
  private stopping = false;

  constructor(private readonly opts: KafkaTransportOptions) {
    fixKafkaRequestQueue(); // no 1 ms timer spinning on every idle connection (kafka-request-queue-fix.ts)
    fixKafkaEmptyBatches(); // a fetch's empty partitions not handled one by one (kafka-empty-batches-fix.ts)
    fixKafkaFetchSessions(); // a fetch names only the partitions that moved (kafka-fetch-sessions.ts)
    this.kafka = new Kafka({
      clientId: opts.clientId,
      brokers: opts.brokers,
      ...(opts.ssl !== undefined ? { ssl: opts.ssl } : {}),
      ...(opts.sasl ? { sasl: opts.sasl } : {}),
      logLevel: logLevel.WARN,
      retry: { initialRetryTime: 200, retries: 10 },
      logCreator: () => (entry) => {
        // The relay retries failed sends itself and consumers dedupe, so this advice is noise here.
        if (entry.log.message.startsWith('Limiting retries for the idempotent producer')) return;
        if (entry.level <= logLevel.WARN) this.log.warn(`${entry.namespace}: ${entry.log.message}`);
      },
    });
    this.producer = this.newProducer();
  }

  // Idempotent producer: a retried send never duplicates on the broker (acks=all is implied).
  private newProducer(): Producer {
    return this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner, // murmur2, as the Java client: same key, same partition
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
  }

  async connect(): Promise<void> {
    await this.ensureTopics();
    this.producerConnected = this.producer.connect();
    await this.producerConnected;
  }

  private async ensureTopics(): Promise<void> {
    const admin: Admin = this.kafka.admin();
    await admin.connect();
    try {
      if (this.opts.createTopics ?? true) {
        await provisionTopics(admin, this.opts);
        return;
      }
      // Production: topics are provisioned by `kafka:topics` (a Job); wait for them, bounded.
      const timeoutMs = this.opts.topicsWaitMs ?? 300_000;
      const started = Date.now();
      let lastLog = 0;
      for (;;) {
        const missing = await missingTopics(admin);
        if (missing.length === 0) return;
        if (Date.now() - started > timeoutMs) {
          throw new Error(
            `Kafka topics missing after ${Math.round(timeoutMs / 1000)} s: ${missing.join(', ')}; ` +
              'run the kafka-topics step (node dist/tools/kafka-topics/main.js) or set KAFKA_CREATE_TOPICS=true',
          );
        }
        if (Date.now() - lastLog >= 10_000) {
          this.log.warn(`waiting for the kafka-topics step: missing ${missing.join(', ')}`);
          lastLog = Date.now();
        }
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    } finally {
      await admin.disconnect();
    }
  }

  async publish(records: TransportRecord[]): Promise<void> {
    if (records.length === 0) return;
    // Grouped in place: copying the topic's list for every record cost about 3 ms a batch of 1,000.
    const byTopic = new Map<string, TransportRecord[]>();
    for (const r of records) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r);
      else byTopic.set(r.topic, [r]);
    }
    const producer = this.producer;
    await this.producerConnected;
    try {
      await producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic.entries()].map(([topic, rs]) => ({
          topic,
          messages: rs.map((r) => ({ key: r.key, value: r.value, headers: r.headers })),
        })),
      });
    } catch (err) {
      this.replaceProducer(producer);
      throw err;
    }
  }

  // After a failed send the idempotent producer's sequence numbers may no longer match the
  // broker's (a batch the broker wrote whose answer was lost when it went down is rolled back on
  // our side), and every later send would then fail with OUT_OF_ORDER_SEQUENCE_NUMBER. A fresh
  // producer gets a new producer id and starts its sequences at 0. The caller (the outbox relay)
  // retries the batch; a batch the broker had in fact written arrives twice, which consumers
  // dedupe by event id.
  private replaceProducer(failed: Producer): void {
    if (this.producer !== failed || this.stopping) return;
    this.producer = this.newProducer();
    this.producerConnected = failed
      .disconnect()
      .catch(() => undefined)
      .then(() => this.producer.connect())
      .catch((err: unknown) => {
        // the next publish retries through the same path
        this.log.warn(`Kafka producer reconnect failed: ${(err as Error).message}`);
      });
  }

  async subscribe(opts: SubscribeOptions): Promise<void> {
    const subscription: Subscription = { joined: false };
    this.subscriptions.push(subscription);
    await this.startConsumer(opts, subscription);
  }

  private async startConsumer(opts: SubscribeOptions, subscription: Subscription): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: opts.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: this.opts.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: Math.min(3000, Math.floor((this.opts.sessionTimeoutMs ?? 30_000) / 3)),
      maxWaitTimeInMs: 500, // an idle fetch returns quickly, so events flow fast and shutdown is short
    });
    subscription.consumer = consumer;
    subscription.commits?.stop();
    const intervalMs = this.opts.commitIntervalMs ?? 1000;
    const commits =
      intervalMs > 0 && opts.handleBatch
        ? new OffsetCommits(consumer, intervalMs, (err) =>
            this.log.warn(`Kafka consumer ${opts.groupId}: offset commit failed, retrying: ${err.message}`),
          )
        : undefined;
    subscription.commits = commits;
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      subscription.joined = true;
      commits?.assigned(payload.memberAssignment);
    });
    // kafkajs restarts a consumer after a retriable crash by itself, but gives up for good after a
    // non-retriable one (an error from the group coordinator while the broker restarts, say): the
    // service would then stay up and consume nothing. Start a fresh consumer of the same group.
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (payload.restart || this.stopping) return;
      this.log.error(
        `Kafka consumer ${opts.groupId} crashed for good (${payload.error.message}); starting a new one`,
      );
      setTimeout(() => void this.restartConsumer(opts, subscription, consumer), 1000);
    });
    await consumer.connect();
    // A new group starts from the earliest offset, so events published before it first joined are not lost.
    await consumer.subscribe({ topics: opts.topics, fromBeginning: true });
    // The partitions of one fetch in one handleBatch call (one consumer transaction) instead of one
    // call each, four at a time: the batches beyond the fourth waited for a worker (p50 5-250 ms in
    // P2 distributed), and every partition cost its own BEGIN, inbox statement and COMMIT.
    const gather = opts.handleBatch ? new BatchGather(opts.handleBatch, KAFKA_HANDLE_CHUNK) : undefined;
    await consumer.run(
      gather
        ? {
            autoCommit: !commits,
            // a worker for every partition, so that all of a fetch's batches start in the same tick
            // (the gather bounds the transactions at once)
            partitionsConsumedConcurrently: Math.max(64, opts.topics.length * this.opts.partitions),
            // Offsets are resolved by hand, chunk by chunk, after each chunk was handled: auto-resolve
            // would also mark the messages left unhandled when a rebalance cuts the batch short.
            eachBatchAutoResolve: false,
            eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
              for (let i = 0; i < batch.messages.length; i += KAFKA_HANDLE_CHUNK) {
                if (!isRunning() || isStale()) return;
                const chunk = batch.messages.slice(i, i + KAFKA_HANDLE_CHUNK);
                const records = chunk.map((m) => consumedRecord(batch.topic, batch.partition, m));
                await gather.submit(records);
                const last = chunk.at(-1);
                if (last) {
                  resolveOffset(last.offset);
                  commits?.handled(batch.topic, batch.partition, last.offset);
                }
                await heartbeat();
              }
            },
          }
        : {
            partitionsConsumedConcurrently: 4,
            eachMessage: async ({ topic, partition, message }) =>
              opts.handle(consumedRecord(topic, partition, message)),
          },
    );
  }

  private async restartConsumer(
    opts: SubscribeOptions,
    subscription: Subscription,
    crashed: Consumer,
  ): Promise<void> {
    if (this.stopping || subscription.consumer !== crashed) return;
    subscription.commits?.stop(); // the crashed consumer can no longer commit; its events come again
    try {
      await crashed.disconnect().catch(() => undefined);
      await this.startConsumer(opts, subscription);
    } catch (err) {
      this.log.error(`Kafka consumer ${opts.groupId} restart failed (${(err as Error).message}); retrying`);
      const failed = subscription.consumer;
      if (failed) setTimeout(() => void this.restartConsumer(opts, subscription, failed), 5000);
    }
  }

  isConsuming(): boolean {
    return this.subscriptions.every((s) => s.joined);
  }

  // Bounded: kafkajs waits for a consumer's group join to finish before it leaves, and a join that
  // keeps failing to find its coordinator (a broker under load, a group created a moment ago) retries
  // for minutes. Past the bound the member is left to expire by its session timeout; nothing is lost,
  // since what it had not committed is delivered again and the inbox dedupes it.
  async disconnect(): Promise<void> {
    this.stopping = true;
    await Promise.allSettled(
      this.subscriptions.map(async (s) => {
        if (!s.consumer) return;
        // What was handled goes on record while the consumer is still a member; a batch still being
        // handled now is delivered again after the restart (the inbox absorbs it).
        if (s.commits) {
          s.commits.stop();
          await this.bounded(s.commits.flush(), 'offset commit');
        }
        await this.bounded(s.consumer.disconnect(), 'consumer leave');
      }),
    );
    await this.bounded(
      this.producer.disconnect().catch(() => undefined),
      'producer disconnect',
    );
  }

  private async bounded(work: Promise<void>, what: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), DISCONNECT_TIMEOUT_MS);
    });
    // A failure after the bound must not surface as an unhandled rejection: it is settled here too.
    const settled = work.then(
      () => 'done' as const,
      () => 'done' as const,
    );
    const outcome = await Promise.race([settled, timedOut]).finally(() => clearTimeout(timer));
    if (outcome === 'timeout') {
      this.log.warn(`Kafka ${what} took over ${DISCONNECT_TIMEOUT_MS} ms; not waiting any longer`);
    }
  }
}
