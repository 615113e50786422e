import { deadLetterTopic } from '@onramp/contracts';

const DLQ_SUFFIX = deadLetterTopic('');
const DLQ_HEADER_PREFIX = 'dlq-';

export interface DeadLetter {
  dlqTopic: string;
  partition: number;
  offset: string;
  timestamp: Date; // when it was dead-lettered
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface DeadLetterFilter {
  consumer?: string; // the dlq-consumer header: the consumer group that gave up
  since?: Date;
}

export const isDeadLetterTopic = (topic: string): boolean => topic.endsWith(DLQ_SUFFIX);

export function sourceTopicOf(dlqTopic: string): string {
  if (!isDeadLetterTopic(dlqTopic)) throw new Error(`${dlqTopic} is not a dead-letter topic`);
  return dlqTopic.slice(0, -DLQ_SUFFIX.length);
}

// "order.completed" or "order.completed.dlq" both name the dead-letter topic of order.completed.
export const dlqTopicFor = (topic: string): string =>
  isDeadLetterTopic(topic) ? topic : deadLetterTopic(topic);

export function matchesFilter(record: DeadLetter, filter: DeadLetterFilter): boolean {
  if (filter.consumer !== undefined && record.headers['dlq-consumer'] !== filter.consumer) return false;
  if (filter.since !== undefined && record.timestamp.getTime() < filter.since.getTime()) return false;
  return true;
}

// The original event again: its key, value and headers, minus what the dead-lettering added, plus
// where it was replayed from (consumers ignore headers they do not know).
export function replayHeaders(record: DeadLetter): Record<string, string> {
  const kept = Object.entries(record.headers).filter(([k]) => !k.toLowerCase().startsWith(DLQ_HEADER_PREFIX));
  return {
    ...Object.fromEntries(kept),
    'replayed-from': `${record.dlqTopic}@${record.partition}:${record.offset}`,
  };
}

// A replay filtered by consumer commits in a group of its own, so it never marks another
// consumer's dead letters as dealt with.
export function replayGroupId(base: string, filter: DeadLetterFilter): string {
  return filter.consumer ? `${base}.${filter.consumer}` : base;
}
