import { Kafka, logLevel } from 'kafkajs';

// A new consumer group starts from the earliest offset and would replay every order event other runs
// left on the shared broker. Committing the current end offsets first makes it see only new events.
export async function startGroupAtEnd(groupId: string, topics: string[]): Promise<void> {
  const kafka = new Kafka({
    clientId: 'webhook-dispatch-test-setup',
    brokers: (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(','),
    logLevel: logLevel.NOTHING,
  });
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
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.connect();
  try {
    const subscribed = [...new Set(ends.map((e) => e.topic))];
    await consumer.subscribe({ topics: subscribed });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause(subscribed.map((topic) => ({ topic })));
    await joined;
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}
