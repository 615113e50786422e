import { EventEmitter } from 'node:events';

// Process-wide: in embedded mode each service has its own transport, and a publish by one must wake
// the consumers of the others at once. Consumers in other processes fall back to polling.
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

// A row of the log as it was appended (what a consumer's read of the log returns, with its partition).
export interface AppendedRow {
  seq: string;
  topic: string;
  partition: number;
  key: string;
  value: string;
  headers: Record<string, string>;
}

export interface Appended {
  records: ReadonlyArray<{ topic: string; partition: number }>;
  maxSeq: bigint;
  // With both, the append is complete: its rows are every row of the log after previousMaxSeq up to
  // maxSeq, so a consumer that had seen the log up to previousMaxSeq can take them without a read.
  // Without, its consumers read the log.
  previousMaxSeq?: bigint;
  rows?: readonly AppendedRow[];
}

export const appendedEvents = {
  emit(appended: Appended): void {
    emitter.emit('appended', appended);
  },
  on(listener: (appended: Appended) => void): () => void {
    emitter.on('appended', listener);
    return () => emitter.off('appended', listener);
  },
};
