import { randomUUID } from 'node:crypto';

import { Kafka, logLevel } from 'kafkajs';

import { Topics } from '@onramp/contracts';
import { loadInfraConfig, waitFor } from '@onramp/platform-infra';

import { ConsumedRecord } from './event-transport';
import { KafkaTransport } from './kafka.transport';

// Offsets are committed every KAFKA_COMMIT_INTERVAL_MS (and when the transport disconnects), not
// after every batch: what a consumer handled is on record within the interval, and a consumer of the
// same group started afterwards does not get it again.
describe('KafkaTransport offset commits over real Kafka', () => {
  const servers = loadInfraConfig(); // the run's, from the integration global setup
  const brokers = (servers.kafkaBrokers ?? '127.0.0.1:9092').split(',');
  const topic = Topics.TransferFailed;
  const transports: KafkaTransport[] = [];

  afterAll(async () => {
    await Promise.all(transports.map((t) => t.disconnect()));
  });

  const consume = async (groupId: string, key: string, commitIntervalMs: number) => {
    const transport = new KafkaTransport({
      brokers,
      clientId: groupId,
      partitions: 3,
      replicationFactor: 1,
      commitIntervalMs,
    });
    transports.push(transport);
    await transport.connect();
    const seen: ConsumedRecord[] = [];
    const take = async (records: ConsumedRecord[]) => void seen.push(...records.filter((r) => r.key === key));
    await transport.subscribe({ groupId, topics: [topic], handle: (r) => take([r]), handleBatch: take });
    await waitFor(() => transport.isConsuming(), { timeoutMs: 60_000, description: 'the group joined' });
    return { transport, seen };
  };

  const committedOffset = async (groupId: string, partition: number): Promise<number> => {
    const kafka = new Kafka({ brokers, clientId: 'offsets-reader', logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
      return Number(offsets?.partitions.find((p) => p.partition === partition)?.offset ?? -1);
    } finally {
      await admin.disconnect();
    }
  };

  const publish = async (transport: KafkaTransport, key: string, n: number) =>
    transport.publish(
      Array.from({ length: n }, (_, i) => ({ topic, key, value: `{"i":${i}}`, headers: {} })),
    );

  it.each([
    ['within the interval', 200],
    ['when the transport disconnects', 60_000],
  ])('commits what was handled %s; the group does not get it again', async (_when, intervalMs) => {
    const groupId = `offsets-${randomUUID()}`;
    const key = randomUUID();
    const first = await consume(groupId, key, intervalMs);
    await publish(first.transport, key, 5);
    await waitFor(() => first.seen.length === 5, { timeoutMs: 30_000, description: 'five records handled' });
    const last = first.seen[4]!;
    if (intervalMs < 1000) {
      await waitFor(
        async () => (await committedOffset(groupId, last.partition)) === Number(last.offset) + 1,
        {
          timeoutMs: 10_000,
          description: 'the offsets committed',
        },
      );
    }
    await first.transport.disconnect();

    const second = await consume(groupId, key, intervalMs);
    await publish(second.transport, key, 1);
    await waitFor(() => second.seen.length >= 1, { timeoutMs: 30_000, description: 'the new record' });
    expect(second.seen.map((r) => r.value)).toEqual(['{"i":0}']);
  });
});
