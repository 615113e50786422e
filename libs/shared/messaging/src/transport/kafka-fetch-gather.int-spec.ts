import { randomUUID } from 'node:crypto';

import { Kafka, logLevel } from 'kafkajs';

import { deadLetterTopic, Topics } from '@onramp/contracts';
import { loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { kafkaTestTransports } from '../testing/kafka-test-transports';
import { ConsumedRecord } from './event-transport';
import { partitionFor } from './murmur2-partitioner';

// A fetch that brings records of several partitions hands them to the consumer in one handleBatch
// call (one transaction), each partition in log order; a call that fails leaves its offsets
// unresolved, so its records come again.
describe('KafkaTransport: the partitions of one fetch in one handleBatch call, over real Kafka', () => {
  const servers = loadInfraConfig(); // the run's, from the integration global setup
  const brokers = (servers.kafkaBrokers ?? '127.0.0.1:9092').split(',');
  const topic = deadLetterTopic(Topics.PaymentReversed); // a topic the other specs leave alone
  const transports = kafkaTestTransports(brokers);

  afterAll(async () => {
    await transports.disconnectAll();
  });

  const partitionCount = async (name: string): Promise<number> => {
    const admin = new Kafka({ brokers, clientId: 'partitions-reader', logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [name] });
      return topics[0]?.partitions.length ?? 0;
    } finally {
      await admin.disconnect();
    }
  };

  const transport = (clientId: string) => transports.connect(clientId);

  it('joins the partitions waiting at the first fetch, keeps each in order, and redelivers a failed call', async () => {
    const producer = await transport(`gather-p-${randomUUID()}`);
    // three keys on three partitions, two records each, all waiting before the group joins: six
    // records are one transaction's worth (under the gather's smallest pack)
    const partitions = await partitionCount(topic);
    const keys: string[] = [];
    while (keys.length < 3) {
      const key = randomUUID();
      if (!keys.some((k) => partitionFor(k, partitions) === partitionFor(key, partitions))) keys.push(key);
    }
    await producer.publish(
      keys.flatMap((key) =>
        Array.from({ length: 2 }, (_, i) => ({ topic, key, value: `{"i":${i}}`, headers: {} })),
      ),
    );

    const consumer = await transport(`gather-c-${randomUUID()}`);
    const calls: ConsumedRecord[][] = [];
    let failed = false;
    const mine = new Set<string>(keys);
    // the topic may hold other tests' records too (a new group reads it from the beginning)
    const take = async (records: ConsumedRecord[]) => {
      calls.push(records);
      if (!failed) {
        failed = true;
        throw new Error('the transaction failed'); // nothing of this call may count as handled
      }
    };
    await consumer.subscribe({
      groupId: `gather-${randomUUID()}`,
      topics: [topic],
      handle: (r) => take([r]),
      handleBatch: take,
    });
    const id = (r: ConsumedRecord) => `${r.partition}|${r.offset}`;
    const handled = () => new Set(calls.slice(1).flat().map(id));
    const ours = () =>
      calls
        .slice(1)
        .flat()
        .filter((r) => mine.has(r.key));
    await waitFor(() => new Set(ours().map(id)).size === 6, {
      timeoutMs: 60_000,
      description: 'every record handled',
    });

    // the first call (which failed) held more than one partition: one transaction for the fetch
    expect(new Set(calls[0]!.map((r) => r.partition)).size).toBe(3);
    // what the failed call held came again
    for (const r of calls[0]!) expect(handled().has(id(r))).toBe(true);
    // each key's records in log order within every call, and across the calls after the failure
    for (const call of calls) {
      for (const key of keys) {
        const values = call.filter((r) => r.key === key).map((r) => JSON.parse(r.value).i as number);
        expect(values).toEqual([...values].sort((a, b) => a - b));
      }
    }
    for (const key of keys) {
      const after = ours().filter((r) => r.key === key);
      const first = after.findIndex((r) => r.value === '{"i":0}');
      expect(
        after
          .slice(first)
          .map((r) => JSON.parse(r.value).i as number)
          .slice(0, 2),
      ).toEqual([0, 1]);
    }
  });
});
