import { randomUUID } from 'node:crypto';

import { Consumer, Kafka, logLevel, Producer } from 'kafkajs';

import { CURRENT_EVENT_VERSION, EventEnvelope, EventHeaders, EventMap, EventType } from '@onramp/contracts';
import { newTraceparent, uuidv7 } from '@onramp/messaging';
import { waitFor } from '@onramp/testing';

export const brokers = (): string[] => (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');

export function testKafka(): Kafka {
  return new Kafka({ clientId: `test-${randomUUID()}`, brokers: brokers(), logLevel: logLevel.NOTHING });
}

export function envelope<K extends EventType>(
  type: K,
  merchantId: string,
  data: EventMap[K],
): EventEnvelope<K, EventMap[K]> {
  return {
    id: uuidv7(),
    type,
    version: CURRENT_EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    merchantId,
    data,
  };
}

// Publishes like another service's outbox relay would: key = order uuid, the envelope as JSON.
export async function produce(producer: Producer, event: EventEnvelope, key: string): Promise<void> {
  await producer.send({
    topic: event.type,
    acks: -1,
    messages: [
      {
        key,
        value: JSON.stringify(event),
        headers: {
          [EventHeaders.Id]: event.id,
          [EventHeaders.Type]: event.type,
          [EventHeaders.Version]: String(event.version),
          [EventHeaders.TraceParent]: newTraceparent(),
        },
      },
    ],
  });
}

// Reads topics from the beginning in its own consumer group; tests filter by their own order uuids
// because other suites share the broker.
export class EventCollector {
  readonly events: EventEnvelope[] = [];
  private consumer?: Consumer;

  constructor(private readonly kafka: Kafka) {}

  async start(topics: string[]): Promise<void> {
    this.consumer = this.kafka.consumer({ groupId: `test-collector-${randomUUID()}` });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        if (message.value) this.events.push(JSON.parse(message.value.toString()) as EventEnvelope);
      },
    });
  }

  forOrder<K extends EventType>(type: K, orderUuid: string): EventEnvelope<K, EventMap[K]>[] {
    return this.events.filter(
      (e): e is EventEnvelope<K, EventMap[K]> =>
        e.type === type && (e.data as { orderUuid?: string } | null)?.orderUuid === orderUuid,
    );
  }

  async waitFor<K extends EventType>(
    type: K,
    orderUuid: string,
    timeoutMs = 30_000,
  ): Promise<EventEnvelope<K, EventMap[K]>> {
    const [first] = await waitFor(
      () => {
        const found = this.forOrder(type, orderUuid);
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs, description: `${type} for order ${orderUuid}` },
    );
    return first;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
