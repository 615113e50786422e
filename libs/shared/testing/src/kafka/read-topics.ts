import { randomUUID } from 'node:crypto';

import { Kafka, logLevel } from 'kafkajs';

import { waitFor } from '@onramp/platform-infra';

export interface ReadRecord {
  topic: string;
  key: string;
  timestamp: number; // ms, set by the producer as it sent the batch (the relay, for outbox events)
  headers: Record<string, string>;
  value: string;
}

// Reads topics from their beginning up to their end offsets as they were when called, in a group of
// its own that never commits: what the relays published (the outbox deletes what it published, so
// the bus is where a test or the bench finds it). Other runs may share the broker: filter by your ids.
export async function readTopics(
  brokers: string[],
  topics: string[],
  timeoutMs = 60_000,
): Promise<ReadRecord[]> {
  const kafka = new Kafka({ clientId: 'topic-reader', brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const remaining = new Map<string, bigint>(); // topic/partition -> last offset still to read
  try {
    const existing = new Set(await admin.listTopics());
    for (const topic of topics.filter((t) => existing.has(t))) {
      // a topic an app has just created may not have its leader yet
      const offsets = await waitFor(() => admin.fetchTopicOffsets(topic).catch(() => undefined), {
        timeoutMs: 30_000,
        intervalMs: 250,
        description: `the offsets of ${topic}`,
      });
      for (const p of offsets)
        if (BigInt(p.high) > BigInt(p.low)) remaining.set(`${topic}/${p.partition}`, BigInt(p.high) - 1n);
    }
  } finally {
    await admin.disconnect();
  }
  const records: ReadRecord[] = [];
  if (remaining.size === 0) return records;
  const consumer = kafka.consumer({ groupId: `topic-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    await consumer.subscribe({
      topics: [...new Set([...remaining.keys()].map((k) => k.split('/')[0]))],
      fromBeginning: true,
    });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        const last = remaining.get(`${topic}/${partition}`);
        if (last === undefined || BigInt(message.offset) > last) return;
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {}))
          if (v !== undefined) headers[k] = String(v);
        records.push({
          topic,
          key: message.key?.toString() ?? '',
          timestamp: Number(message.timestamp),
          headers,
          value: message.value?.toString() ?? '',
        });
        if (BigInt(message.offset) === last) {
          remaining.delete(`${topic}/${partition}`);
          if (remaining.size === 0) done();
        }
      },
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      finished,
      new Promise<void>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`reading ${topics.length} topics: timed out`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    return records;
  } finally {
    await consumer.disconnect();
  }
}
