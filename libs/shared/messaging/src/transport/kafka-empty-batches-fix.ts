// kafkajs 2.2.4 turns every fetch response into one batch per assigned partition, the empty ones
// included, and each goes through the consumer's machinery: the fetcher marks the partition busy, a
// worker takes the batch from the queue, the runner looks at it, finds nothing and heartbeats (a
// promise chain per partition per fetch). A service's consumer group is assigned every partition
// of every topic it handles (orders: six topics of twelve partitions), and a fetch returns as soon
// as one of them has a record, so under a steady trickle of events almost all of that work is on
// empty batches: with 72 partitions, orders spent about a fifth of its CPU in kafkajs' per-partition
// steps at 20 payouts/s (docs/performance-journal.md, "the empty batches of a fetch").
//
// Fixed here: a fetch hands on only the batches the runner does something with, those with records
// and those emptied by filtering (control records, aborted transactions: their offsets must still be
// resolved). A truly empty batch was only a heartbeat, and the runner heartbeats after a fetch that
// returned nothing; one with records heartbeats as before. Offsets, pauses and seeks are untouched.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- kafkajs' internal class, no types
const ConsumerGroup = require('kafkajs/src/consumer/consumerGroup') as ConsumerGroupClass;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the version the fix is written for
const { version } = require('kafkajs/package.json') as { version: string };

export interface FetchedBatch {
  isEmpty(): boolean;
  isEmptyDueToFiltering(): boolean;
}

type Fetch = (this: unknown, nodeId: number) => Promise<FetchedBatch[]>;

interface ConsumerGroupClass {
  prototype: { fetch: Fetch };
}

export function withoutEmptyBatches(fetch: Fetch): Fetch {
  return async function (this: unknown, nodeId: number) {
    const batches = await fetch.call(this, nodeId);
    return batches.filter((b) => !b.isEmpty() || b.isEmptyDueToFiltering());
  };
}

// kafkajs' own fetch, wrapped once at load: applying the fix again assigns the same function.
const patchedFetch = withoutEmptyBatches(ConsumerGroup.prototype.fetch);

// Applied when the transport is loaded, and only to the version it was written for.
export function fixKafkaEmptyBatches(): boolean {
  if (version !== '2.2.4') return false;
  ConsumerGroup.prototype.fetch = patchedFetch;
  return true;
}
