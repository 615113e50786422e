import { FetchedBatch, fixKafkaEmptyBatches, withoutEmptyBatches } from './kafka-empty-batches-fix';

// kafkajs' own batch, as ConsumerGroup.fetch makes it from a fetch response's partition
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, no types
const Batch = require('kafkajs/src/consumer/batch') as new (
  topic: string,
  fetchedOffset: string,
  partitionData: Record<string, unknown>,
) => FetchedBatch & { partition: number };
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the class the fix patches
const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as {
  prototype: { fetch: (nodeId: number) => Promise<FetchedBatch[]> };
};

const partition = (partition: number, messages: Array<Record<string, unknown>>) => ({
  partition,
  highWatermark: '10',
  abortedTransactions: [],
  messages,
});
const record = (offset: string, isControlRecord = false) => ({
  offset,
  key: null,
  value: null,
  isControlRecord,
});

describe('kafkajs empty batches fix', () => {
  it('keeps batches with records and those emptied by filtering, drops truly empty ones', async () => {
    const batches = [
      new Batch('t', '5', partition(0, [])), // nothing fetched: only a heartbeat
      new Batch('t', '5', partition(1, [record('5'), record('6')])),
      new Batch('t', '5', partition(2, [record('5', true)])), // a control record: its offset is resolved
      new Batch('t', '5', partition(3, [])),
    ];
    const fetch = withoutEmptyBatches(async () => batches);
    const kept = (await fetch.call(undefined, 1)) as unknown as Array<{ partition: number }>;
    expect(kept.map((b) => b.partition)).toEqual([1, 2]);
  });

  it('patches ConsumerGroup.fetch once, however many transports are made', () => {
    expect(fixKafkaEmptyBatches()).toBe(true);
    const patched = ConsumerGroup.prototype.fetch;
    expect(fixKafkaEmptyBatches()).toBe(true);
    expect(ConsumerGroup.prototype.fetch).toBe(patched);
  });
});
