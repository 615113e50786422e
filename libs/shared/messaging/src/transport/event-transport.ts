export interface TransportRecord {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface ConsumedRecord extends TransportRecord {
  partition: number;
  offset: string;
}

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  handle: (record: ConsumedRecord) => Promise<void>;
  // Records that are waiting together, each partition's in log order (the embedded bus: what one
  // append woke in several partitions; Kafka: what one fetch brought of several partitions); when
  // given, a transport hands them over in one call instead of one `handle` each (EventConsumer
  // handles them in one transaction). Only after it returned are their offsets committed.
  handleBatch?: (records: ConsumedRecord[]) => Promise<void>;
  // How long a record of `topic` may wait, when the group is busy, for others to share its
  // handleBatch call (fewer, larger transactions for events nobody waits on); 0: handed over at
  // once. The embedded bus honours it; a Kafka fetch already brings what waited together.
  mayWaitMs?: (topic: string) => number;
}

// A transport whose log lives in the same Postgres database as a service's outbox (the embedded bus)
// moves committed outbox rows into the log itself, in one statement and one transaction: the
// payloads never pass through the relay. The relay asks for it and otherwise (Kafka) reads,
// publishes and deletes.
export interface OutboxMover {
  // Moves up to `limit` rows of `<schema>.outbox` (every row there is unpublished) into the log in
  // outbox order and deletes them from the outbox, all or nothing, under the relay's lock
  // (relayLockKey). Returns how many moved:
  // 0 when nothing waits or another relay holds the lock.
  move(schema: string, limit: number): Promise<number>;
}

// One relay per schema works at a time (a transaction-scoped advisory lock on this key), whichever
// way it publishes, so the events of one order never overtake each other.
export function relayLockKey(schema: string): string {
  return `${schema}.outbox`;
}

// What services see of the broker: Kafka in distributed mode, the Postgres-backed embedded bus in the
// one-process `npm start` (EVENT_TRANSPORT).
export interface EventTransport {
  connect(): Promise<void>;
  publish(records: TransportRecord[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<void>;
  isConsuming(): boolean;
  disconnect(): Promise<void>;
  // Only offered when the relay's own database (queried through `relayDatabase`) holds this log.
  outboxMover?(relayDatabase: (sql: string) => Promise<unknown[]>): Promise<OutboxMover | undefined>;
}

export const EVENT_TRANSPORT = Symbol('EVENT_TRANSPORT');
