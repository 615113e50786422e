import { EntityManager } from 'typeorm';

import {
  EventEnvelope,
  EventHeaders,
  EventMap,
  EventType,
  eventVersion,
  validatePayload,
} from '@onramp/contracts';

import { currentTraceparent } from '@onramp/observability';

import { newTraceparent, uuidv7 } from '../ids';
import { keyHash } from '../transport/murmur2-partitioner';

export interface AppendEvent<K extends EventType> {
  type: K;
  key: string; // order uuid (user uuid for KYC events): one key, one partition, one order
  merchantId: string;
  data: EventMap[K];
  traceparent?: string;
}

// An outbox row's values, in the order of OUTBOX_COLUMNS: event_id, topic, key, envelope (JSON text),
// headers (JSON text), key_hash (an integer, as text).
export type OutboxRowValues = readonly [string, string, string, string, string, string];

// The columns a writer fills, in the order of OutboxRowValues.
export const OUTBOX_COLUMNS = 'event_id, topic, key, envelope, headers, key_hash';

export interface PreparedOutboxRow<K extends EventType> {
  envelope: EventEnvelope<K, EventMap[K]>;
  values: OutboxRowValues;
}

// Writes an event into the service's outbox inside the caller's transaction. It is published later
// by the relay, so the event exists if and only if the state change committed.
export class OutboxWriter {
  private preparedCount = 0;

  constructor(private readonly schema: string) {}

  async append<K extends EventType>(
    manager: EntityManager,
    event: AppendEvent<K>,
  ): Promise<EventEnvelope<K, EventMap[K]>> {
    const row = this.prepare(event);
    await manager.query(`INSERT INTO ${this.table} (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)`, [
      ...row.values,
    ]);
    return row.envelope;
  }

  // The outbox row of an event without writing it, for a caller that folds the insert into its own
  // statement (one round trip for a state change and its event, still one transaction). `values`
  // are OUTBOX_COLUMNS', in that order.
  prepare<K extends EventType>(event: AppendEvent<K>): PreparedOutboxRow<K> {
    validatePayload(event.type, event.data); // never publish what a consumer would reject
    this.preparedCount++;
    const envelope: EventEnvelope<K, EventMap[K]> = {
      id: uuidv7(),
      type: event.type,
      version: eventVersion(event.type),
      occurredAt: new Date().toISOString(),
      merchantId: event.merchantId,
      data: event.data,
    };
    const headers = {
      [EventHeaders.Id]: envelope.id,
      [EventHeaders.Type]: envelope.type,
      [EventHeaders.Version]: String(envelope.version),
      // The trace of the request or event being handled, so one order is one trace.
      [EventHeaders.TraceParent]: event.traceparent ?? currentTraceparent() ?? newTraceparent(),
    };
    return {
      envelope,
      values: [
        envelope.id,
        event.type,
        event.key,
        JSON.stringify(envelope),
        JSON.stringify(headers),
        String(keyHash(event.key)),
      ],
    };
  }

  // How many events were prepared so far: the relay compares it between rounds (a moved count means
  // rows to take, no look first), the consumer across a handler's transaction (an unmoved one means
  // nothing for the relay to send after the commit).
  get prepared(): number {
    return this.preparedCount;
  }

  // The quoted table name, e.g. "orders"."outbox".
  get table(): string {
    return `"${this.schema}"."outbox"`;
  }
}
