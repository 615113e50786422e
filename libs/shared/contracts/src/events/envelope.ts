// The JSON value of every event on every topic (docs/architecture.md, events).
export interface EventEnvelope<TType extends string = string, TData = unknown> {
  id: string; // uuid v7, stable across redeliveries
  type: TType;
  version: number;
  occurredAt: string; // ISO 8601 UTC
  merchantId: string;
  data: TData;
}

export const EventHeaders = {
  Id: 'event-id',
  Type: 'event-type',
  Version: 'event-version',
  TraceParent: 'traceparent',
} as const;
