import { Kafka, logLevel, Producer } from 'kafkajs';

import { EventEnvelope, EventHeaders, EventMap, EventType } from '@onramp/contracts';
import { uuidv7 } from '@onramp/messaging';

// Publishes envelopes the way another service's outbox relay would, so a test can play
// payment-ingest or chain-settlement.
export class EventPublisher {
  private constructor(private readonly producer: Producer) {}

  static async start(brokers = process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092'): Promise<EventPublisher> {
    const kafka = new Kafka({
      clientId: 'orders-test-publisher',
      brokers: brokers.split(','),
      logLevel: logLevel.NOTHING,
    });
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    return new EventPublisher(producer);
  }

  envelope<K extends EventType>(
    type: K,
    merchantId: string,
    data: EventMap[K],
  ): EventEnvelope<K, EventMap[K]> {
    return { id: uuidv7(), type, version: 1, occurredAt: new Date().toISOString(), merchantId, data };
  }

  async publish(envelope: EventEnvelope<EventType, unknown>, key: string): Promise<void> {
    await this.producer.send({
      topic: envelope.type,
      acks: -1,
      messages: [
        {
          key,
          value: JSON.stringify(envelope),
          headers: {
            [EventHeaders.Id]: envelope.id,
            [EventHeaders.Type]: envelope.type,
            [EventHeaders.Version]: String(envelope.version),
          },
        },
      ],
    });
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
