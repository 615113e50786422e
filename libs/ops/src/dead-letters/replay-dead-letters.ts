import { Admin, Kafka, KafkaConfig, KafkaMessage, logLevel, Partitioners } from 'kafkajs';

import { ALL_TOPICS } from '@onramp/contracts';

import {
  DeadLetter,
  DeadLetterFilter,
  dlqTopicFor,
  matchesFilter,
  replayGroupId,
  replayHeaders,
  sourceTopicOf,
} from './dead-letter-record';

export const DEFAULT_REPLAY_GROUP = 'onramp-dlq-replay';

export interface ReplayDeadLettersOptions extends DeadLetterFilter {
  brokers: string[];
  ssl?: KafkaConfig['ssl']; // as the apps: loadKafkaClientConfig() from @onramp/messaging
  sasl?: KafkaConfig['sasl'];
  topics?: string[]; // source or dead-letter topic names; default: every event topic
  dryRun?: boolean;
  groupId?: string; // default onramp-dlq-replay (+ ".<consumer>" when filtered by consumer)
  timeoutMs?: number; // to read every dead letter that was there when the replay started
}

export interface ReplayedDeadLetter {
  dlqTopic: string;
  partition: number;
  offset: string;
  sourceTopic: string;
  key: string;
  eventId?: string;
  eventType?: string;
  consumer?: string;
  error?: string;
  deadLetteredAt: string;
  action: 'replayed' | 'would-replay' | 'skipped';
}

export interface ReplayResult {
  groupId: string;
  dryRun: boolean;
  replayed: number;
  skipped: number;
  records: ReplayedDeadLetter[];
}

interface PartitionRange {
  topic: string;
  partition: number;
  end: bigint; // the high watermark when the replay started
}

// Reads each dead-letter topic from this tool's committed offsets up to where it ended when the
// replay started, re-publishes every matching record to its source topic (same key, so the same
// partition as the original), and commits after each one, so a replay is not repeated. Consumers
// are idempotent by event id: a record replayed twice (a crash between publish and commit) or an
// event another consumer group had already handled changes nothing.
export async function replayDeadLetters(opts: ReplayDeadLettersOptions): Promise<ReplayResult> {
  const filter: DeadLetterFilter = { consumer: opts.consumer, since: opts.since };
  const groupId = replayGroupId(opts.groupId ?? DEFAULT_REPLAY_GROUP, filter);
  const dryRun = opts.dryRun ?? false;
  const kafka = new Kafka({
    clientId: 'onramp-replay-dlq',
    brokers: opts.brokers,
    ...(opts.ssl !== undefined ? { ssl: opts.ssl } : {}),
    ...(opts.sasl ? { sasl: opts.sasl } : {}),
    logLevel: logLevel.ERROR,
    retry: { initialRetryTime: 200, retries: 8 },
  });
  const result: ReplayResult = { groupId, dryRun, replayed: 0, skipped: 0, records: [] };

  const admin = kafka.admin();
  await admin.connect();
  let ranges: PartitionRange[];
  try {
    const existing = new Set(await admin.listTopics());
    const topics = [...new Set((opts.topics ?? ALL_TOPICS).map(dlqTopicFor))].filter((t) => existing.has(t));
    ranges = await pendingRanges(admin, groupId, topics);
  } finally {
    await admin.disconnect();
  }
  if (ranges.length === 0) return result;

  const remaining = new Map(ranges.map((r) => [`${r.topic}:${r.partition}`, r.end]));
  const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false, maxWaitTimeInMs: 250 });
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner, // murmur2, as the services: same key, same partition
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await consumer.connect();
    if (!dryRun) await producer.connect();
    const caughtUp = new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.CRASH, (e) => reject(e.payload.error));
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `dead letters not all read within ${opts.timeoutMs ?? 60_000} ms: ${[...remaining.keys()].join(', ')}`,
            ),
          ),
        opts.timeoutMs ?? 60_000,
      );
      const handle = async (topic: string, partition: number, message: KafkaMessage): Promise<void> => {
        const key = `${topic}:${partition}`;
        const end = remaining.get(key);
        if (end === undefined || BigInt(message.offset) >= end) return; // dead-lettered after we started
        const record = toDeadLetter(topic, partition, message);
        const keep = matchesFilter(record, filter);
        if (keep && !dryRun) {
          await producer.send({
            topic: sourceTopicOf(topic),
            acks: -1,
            messages: [{ key: record.key, value: record.value, headers: replayHeaders(record) }],
          });
        }
        result.records.push(
          describeDeadLetter(record, keep ? (dryRun ? 'would-replay' : 'replayed') : 'skipped'),
        );
        if (keep && !dryRun) result.replayed++;
        if (!keep) result.skipped++;
        const next = BigInt(message.offset) + 1n;
        if (!dryRun) await consumer.commitOffsets([{ topic, partition, offset: next.toString() }]);
        if (next >= end) remaining.delete(key);
        if (remaining.size === 0) resolve();
      };
      void consumer
        .subscribe({ topics: [...new Set(ranges.map((r) => r.topic))], fromBeginning: true })
        .then(() =>
          consumer.run({
            autoCommit: false,
            eachMessage: ({ topic, partition, message }) => handle(topic, partition, message),
          }),
        )
        .catch(reject);
    });
    await caughtUp;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
  }
  return result;
}

// Partitions with dead letters this group has not read yet, up to the current end.
async function pendingRanges(admin: Admin, groupId: string, topics: string[]): Promise<PartitionRange[]> {
  const ranges: PartitionRange[] = [];
  for (const topic of topics) {
    const ends = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    for (const p of ends) {
      const mine = committed?.partitions.find((c) => c.partition === p.partition)?.offset ?? '-1';
      const start = BigInt(mine) >= 0n ? BigInt(mine) : BigInt(p.low);
      const end = BigInt(p.high);
      if (start < end) ranges.push({ topic, partition: p.partition, end });
    }
  }
  return ranges;
}

function toDeadLetter(topic: string, partition: number, m: KafkaMessage): DeadLetter {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(m.headers ?? {})) {
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.map(String).join(',') : String(v);
  }
  return {
    dlqTopic: topic,
    partition,
    offset: m.offset,
    timestamp: new Date(Number(m.timestamp)),
    key: m.key?.toString() ?? '',
    value: m.value?.toString() ?? '',
    headers,
  };
}

export function describeDeadLetter(r: DeadLetter, action: ReplayedDeadLetter['action']): ReplayedDeadLetter {
  return {
    dlqTopic: r.dlqTopic,
    partition: r.partition,
    offset: r.offset,
    sourceTopic: sourceTopicOf(r.dlqTopic),
    key: r.key,
    eventId: r.headers['event-id'],
    eventType: r.headers['event-type'],
    consumer: r.headers['dlq-consumer'],
    error: r.headers['dlq-error'],
    deadLetteredAt: r.timestamp.toISOString(),
    action,
  };
}
