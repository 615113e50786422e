import { Logger } from '@nestjs/common';
import { Admin, Consumer, Kafka, logLevel, Partitioners, Producer, SASLOptions } from 'kafkajs';
import type { ConnectionOptions } from 'node:tls';

import { EventTransport, SubscribeOptions, TransportRecord } from './event-transport';
import { missingTopics, provisionTopics } from './kafka-topics';

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  partitions: number;
  replicationFactor: number;
  sessionTimeoutMs?: number; // default 30 s
  ssl?: ConnectionOptions | boolean;
  sasl?: SASLOptions;
  // default true: create missing topics at connect; false (production): wait for `kafka:topics`
  createTopics?: boolean;
  topicsWaitMs?: number; // with createTopics false: how long to wait for the topics (default 300 s)
}

export class KafkaTransport implements EventTransport {
  private readonly log = new Logger(KafkaTransport.name);
  private readonly kafka: Kafka;
  private readonly producer: Producer;
  private readonly consumers: Consumer[] = [];
  private joined = 0;

  constructor(private readonly opts: KafkaTransportOptions) {
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
    // Idempotent producer: a retried send never duplicates on the broker (acks=all is implied).
    this.producer = this.kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner, // murmur2, as the Java client: same key, same partition
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
  }

  async connect(): Promise<void> {
    await this.ensureTopics();
    await this.producer.connect();
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
    const byTopic = new Map<string, TransportRecord[]>();
    for (const r of records) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    await this.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic.entries()].map(([topic, rs]) => ({
        topic,
        messages: rs.map((r) => ({ key: r.key, value: r.value, headers: r.headers })),
      })),
    });
  }

  async subscribe(opts: SubscribeOptions): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: opts.groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: this.opts.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: Math.min(3000, Math.floor((this.opts.sessionTimeoutMs ?? 30_000) / 3)),
      maxWaitTimeInMs: 500, // an idle fetch returns quickly, so events flow fast and shutdown is short
    });
    this.consumers.push(consumer);
    consumer.on(consumer.events.GROUP_JOIN, () => {
      this.joined++;
    });
    await consumer.connect();
    // A new group starts from the earliest offset, so events published before it first joined are not lost.
    await consumer.subscribe({ topics: opts.topics, fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: 4,
      eachMessage: async ({ topic, partition, message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) {
          if (v !== undefined) headers[k] = Array.isArray(v) ? v.map(String).join(',') : String(v);
        }
        await opts.handle({
          topic,
          partition,
          offset: message.offset,
          key: message.key?.toString() ?? '',
          value: message.value?.toString() ?? '',
          headers,
        });
      },
    });
  }

  isConsuming(): boolean {
    return this.joined >= this.consumers.length;
  }

  async disconnect(): Promise<void> {
    await Promise.allSettled(this.consumers.map((c) => c.disconnect()));
    await this.producer.disconnect().catch(() => undefined);
  }
}
