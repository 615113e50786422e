import { Logger } from '@nestjs/common';
import { Admin, Consumer, Kafka, logLevel, Partitioners, Producer } from 'kafkajs';

import { ALL_TOPICS, deadLetterTopic } from '@onramp/contracts';

import { EventTransport, SubscribeOptions, TransportRecord } from './event-transport';

export interface KafkaTransportOptions {
  brokers: string[];
  clientId: string;
  partitions: number;
  replicationFactor: number;
  sessionTimeoutMs?: number; // default 30 s
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
      const existing = new Set(await admin.listTopics());
      const wanted = ALL_TOPICS.flatMap((t) => [t, deadLetterTopic(t)]).filter((t) => !existing.has(t));
      if (wanted.length > 0) {
        await admin.createTopics({
          waitForLeaders: true,
          topics: wanted.map((topic) => ({
            topic,
            numPartitions: this.opts.partitions,
            replicationFactor: this.opts.replicationFactor,
          })),
        });
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
