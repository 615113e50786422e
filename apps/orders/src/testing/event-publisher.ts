import { Producer } from 'kafkajs';

import { EventEnvelope, EventMap, EventType } from '@onramp/contracts';
import { envelope, produce, testKafka } from '@onramp/testing';

// Publishes envelopes the way another service's outbox relay would, so a test can play
// payment-ingest or chain-settlement.
export class EventPublisher {
  private constructor(private readonly producer: Producer) {}

  static async start(): Promise<EventPublisher> {
    const producer = testKafka().producer({ allowAutoTopicCreation: false });
    await producer.connect();
    return new EventPublisher(producer);
  }

  envelope<K extends EventType>(
    type: K,
    merchantId: string,
    data: EventMap[K],
  ): EventEnvelope<K, EventMap[K]> {
    return envelope(type, merchantId, data);
  }

  publish(event: EventEnvelope<EventType, unknown>, key: string): Promise<void> {
    return produce(this.producer, event, key);
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}
