import { randomUUID } from 'node:crypto';

import { Consumer, Kafka, logLevel, Producer } from 'kafkajs';

import {
  ALL_TOPICS,
  EventEnvelope,
  EventHeaders,
  EventMap,
  EventType,
  eventVersion,
} from '@onramp/contracts';
import { newTraceparent, uuidv7 } from '@onramp/messaging';
import { waitFor } from '@onramp/platform-infra';

import { loadTestEnv } from '../test-env';

export const brokers = (): string[] => loadTestEnv().kafkaBrokers;

export function testKafka(): Kafka {
  return new Kafka({ clientId: `test-${randomUUID()}`, brokers: brokers(), logLevel: logLevel.NOTHING });
}

// Creates the topics as the services would (KafkaTransport.connect): a collector subscribing before
// any app has started would otherwise meet a broker that does not host them yet.
export async function ensureTopics(kafka: Kafka): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = ALL_TOPICS.filter((t) => !existing.has(t));
    if (missing.length > 0) {
      await admin
        .createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({
            topic,
            numPartitions: loadTestEnv().kafkaPartitions,
            replicationFactor: 1,
          })),
        })
        .catch((err: unknown) => {
          // another suite or the app under test was quicker; while its creation settles, the
          // leader wait may meet "does not host this topic-partition": the wait below covers both
          if (!/already exists|does not host this topic-partition/i.test(String(err))) throw err;
        });
    }
    // A fresh broker may report leaders before it serves them.
    await waitFor(
      async () => {
        for (const topic of ALL_TOPICS) await admin.fetchTopicOffsets(topic);
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'topics served by the broker' },
    );
  } finally {
    await admin.disconnect();
  }
}

export function envelope<K extends EventType>(
  type: K,
  merchantId: string,
  data: EventMap[K],
): EventEnvelope<K, EventMap[K]> {
  return {
    id: uuidv7(),
    type,
    version: eventVersion(type),
    occurredAt: new Date().toISOString(),
    merchantId,
    data,
  };
}

// Publishes like another service's outbox relay would: key = order uuid, the envelope as JSON.
export async function produce(producer: Producer, event: EventEnvelope, key: string): Promise<void> {
  await producer.send({
    topic: event.type,
    acks: -1,
    messages: [
      {
        key,
        value: JSON.stringify(event),
        headers: {
          [EventHeaders.Id]: event.id,
          [EventHeaders.Type]: event.type,
          [EventHeaders.Version]: String(event.version),
          [EventHeaders.TraceParent]: newTraceparent(),
        },
      },
    ],
  });
}

// Many events in one request (acks=all), as a busy relay would publish them.
export async function produceMany(
  producer: Producer,
  events: EventEnvelope[],
  keyOf: (e: EventEnvelope) => string,
): Promise<void> {
  const byTopic = new Map<string, EventEnvelope[]>();
  for (const e of events) byTopic.set(e.type, [...(byTopic.get(e.type) ?? []), e]);
  await producer.sendBatch({
    acks: -1,
    topicMessages: [...byTopic].map(([topic, list]) => ({
      topic,
      messages: list.map((event) => ({
        key: keyOf(event),
        value: JSON.stringify(event),
        headers: {
          [EventHeaders.Id]: event.id,
          [EventHeaders.Type]: event.type,
          [EventHeaders.Version]: String(event.version),
          [EventHeaders.TraceParent]: newTraceparent(),
        },
      })),
    })),
  });
}

// Reads topics from the beginning in its own consumer group; tests filter by their own order uuids
// because other suites share the broker.
export class EventCollector {
  readonly events: EventEnvelope[] = [];
  private consumer?: Consumer;

  constructor(private readonly kafka: Kafka) {}

  async start(topics: string[]): Promise<void> {
    await ensureTopics(this.kafka); // the broker does not create topics on subscribe
    this.consumer = this.kafka.consumer({ groupId: `test-collector-${randomUUID()}` });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) this.events.push(JSON.parse(message.value.toString()) as EventEnvelope);
      },
    });
  }

  forOrder<K extends EventType>(type: K, orderUuid: string): EventEnvelope<K, EventMap[K]>[] {
    return this.events.filter(
      (e): e is EventEnvelope<K, EventMap[K]> =>
        e.type === type && (e.data as { orderUuid?: string } | null)?.orderUuid === orderUuid,
    );
  }

  async waitFor<K extends EventType>(
    type: K,
    orderUuid: string,
    timeoutMs = 30_000,
  ): Promise<EventEnvelope<K, EventMap[K]>> {
    const [first] = await waitFor(
      () => {
        const found = this.forOrder(type, orderUuid);
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs, description: `${type} for order ${orderUuid}` },
    );
    return first;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}

// A new consumer group starts from the earliest offset: a test app joining with it would replay every
// event other suites left on a shared broker (and pay or dead-letter them). Committing the current end
// offsets first makes the group see only what is published from now on. (admin.setOffsets would do it
// too, but it joins the group once per topic, seconds each.)
export async function startGroupAtEnd(
  groupId: string,
  topics: string[],
  kafka: Kafka = testKafka(),
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  let ends: { topic: string; partition: number; offset: string }[];
  try {
    const existing = new Set(await admin.listTopics());
    const present = topics.filter((topic) => existing.has(topic));
    const offsets = await Promise.all(
      present.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) })),
    );
    ends = offsets.flatMap(({ topic, partitions }) =>
      partitions.map((p) => ({ topic, partition: p.partition, offset: p.high })),
    );
  } finally {
    await admin.disconnect();
  }
  if (ends.length === 0) return; // fresh broker: nothing to skip
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100, heartbeatInterval: 100 });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  // kafkajs emits GROUP_JOIN before its runner counts as running, and a disconnect in that window
  // stops nothing: the runner starts afterwards and the group keeps a member that holds partitions
  // forever. A heartbeat comes only from the running loop, so after one a disconnect really leaves.
  const beating = new Promise<void>((resolve) => consumer.on(consumer.events.HEARTBEAT, () => resolve()));
  await consumer.connect();
  try {
    const subscribed = [...new Set(ends.map((e) => e.topic))];
    await consumer.subscribe({ topics: subscribed });
    // Nothing is resolved or auto-committed, so whatever it fetches meanwhile leaves no trace; pausing
    // is only possible once the group exists (run() can resolve before that).
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    await joined;
    await beating;
    consumer.pause(subscribed.map((topic) => ({ topic })));
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}
