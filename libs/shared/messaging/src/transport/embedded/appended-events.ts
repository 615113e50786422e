import { EventEmitter } from 'node:events';

// Process-wide: in embedded mode each service has its own transport, and a publish by one must wake
// the consumers of the others at once. Consumers in other processes fall back to polling.
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export interface Appended {
  records: ReadonlyArray<{ topic: string; partition: number }>;
  maxSeq: bigint;
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
