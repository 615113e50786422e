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
  // Records of one partition that are waiting together, in log order; when given, a transport hands
  // them over in one call instead of one `handle` each (EventConsumer handles them in one
  // transaction). Only after it returned are their offsets committed.
  handleBatch?: (records: ConsumedRecord[]) => Promise<void>;
}

// What services see of the broker: Kafka in distributed mode, the Postgres-backed embedded bus in the
// one-process `npm start` (EVENT_TRANSPORT).
export interface EventTransport {
  connect(): Promise<void>;
  publish(records: TransportRecord[]): Promise<void>;
  subscribe(opts: SubscribeOptions): Promise<void>;
  isConsuming(): boolean;
  disconnect(): Promise<void>;
}

export const EVENT_TRANSPORT = Symbol('EVENT_TRANSPORT');
