import { EntityManager } from 'typeorm';

import { CURRENT_EVENT_VERSION, EventEnvelope, EventHeaders, EventMap, EventType, validatePayload } from '@onramp/contracts';

import { newTraceparent, uuidv7 } from '../ids';

export interface AppendEvent<K extends EventType> {
  type: K;
  key: string; // order uuid (user uuid for KYC events): one key, one partition, one order
  merchantId: string;
  data: EventMap[K];
  traceparent?: string;
}

// Writes an event into the service's outbox inside the caller's transaction. It is published later
// by the relay, so the event exists if and only if the state change committed.
export class OutboxWriter {
  constructor(private readonly schema: string) {}

  async append<K extends EventType>(manager: EntityManager, event: AppendEvent<K>): Promise<EventEnvelope<K, EventMap[K]>> {
    validatePayload(event.type, event.data); // never publish what a consumer would reject
    const envelope: EventEnvelope<K, EventMap[K]> = {
      id: uuidv7(),
      type: event.type,
      version: CURRENT_EVENT_VERSION,
      occurredAt: new Date().toISOString(),
      merchantId: event.merchantId,
      data: event.data,
    };
    const headers = {
      [EventHeaders.Id]: envelope.id,
      [EventHeaders.Type]: envelope.type,
      [EventHeaders.Version]: String(envelope.version),
      [EventHeaders.TraceParent]: event.traceparent ?? newTraceparent(),
    };
    await manager.query(
      `INSERT INTO "${this.schema}"."outbox" (event_id, topic, key, envelope, headers) VALUES ($1, $2, $3, $4, $5)`,
      [envelope.id, event.type, event.key, JSON.stringify(envelope), JSON.stringify(headers)],
    );
    return envelope;
  }
}
