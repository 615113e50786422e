import { randomUUID } from 'node:crypto';

import { Consumer, Kafka, logLevel } from 'kafkajs';

import { EventEnvelope } from '@onramp/contracts';
import { waitFor } from '@onramp/platform-infra';

import { loadTestEnv } from '../test-env';
import { ensureTopics } from './kafka-events';

export interface RecordedEvent {
  topic: string;
  key: string;
  headers: Record<string, string>;
  envelope: EventEnvelope;
}

// Reads topics as an outside observer would (own consumer group, from the beginning), so a test
// sees exactly what was published. Other suites share the broker: always filter by your own ids.
export class TopicRecorder {
  readonly events: RecordedEvent[] = [];

  private constructor(private readonly consumer: Consumer) {}

  static async start(
    topics: string[],
    brokers = loadTestEnv().kafkaBrokers.join(','),
  ): Promise<TopicRecorder> {
    const kafka = new Kafka({
      clientId: 'test-recorder',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    // The broker does not create topics on subscribe: a recorder started beside (or before) the
    // app that creates them would fail with "does not host this topic-partition".
    await ensureTopics(kafka);
    const consumer = kafka.consumer({ groupId: `test-recorder-${randomUUID()}` });
    const recorder = new TopicRecorder(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {}))
          if (v !== undefined) headers[k] = String(v);
        recorder.events.push({
          topic,
          key: message.key?.toString() ?? '',
          headers,
          envelope: JSON.parse(message.value?.toString() ?? 'null') as EventEnvelope,
        });
      },
    });
    return recorder;
  }

  async waitForEvent(
    description: string,
    match: (e: RecordedEvent) => boolean,
    timeoutMs = 30_000,
  ): Promise<RecordedEvent> {
    return waitFor(() => this.events.find(match), { timeoutMs, intervalMs: 50, description });
  }

  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }
}
