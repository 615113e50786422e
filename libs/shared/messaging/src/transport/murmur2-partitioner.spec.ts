import { randomUUID } from 'node:crypto';

import { Partitioners } from 'kafkajs';

import { partitionFor } from './murmur2-partitioner';

describe('partitionFor', () => {
  it('puts every key on the partition kafkajs (and the Java client) would', () => {
    const kafka = Partitioners.DefaultPartitioner();
    const keys = [
      '',
      'a',
      'ab',
      'abc',
      'abcd',
      'ünïcødé-key',
      ...Array.from({ length: 200 }, () => randomUUID()),
    ];
    for (const partitions of [1, 3, 12, 50]) {
      const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
        partitionId,
        leader: 0,
        partitionErrorCode: 0,
        replicas: [0],
        isr: [0],
      }));
      for (const key of keys) {
        expect(partitionFor(key, partitions)).toBe(
          kafka({ topic: 't', partitionMetadata, message: { key, value: null } }),
        );
      }
    }
  });
});
