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
  busId: string; // which bus (database) the log is: a process may hold transports on several
  records: ReadonlyArray<{ topic: string; partition: number }>;
  maxSeq: bigint;
  // With both, the append is complete: its rows are every row of the log after previousMaxSeq up to
  // maxSeq, so a consumer that had seen the log up to previousMaxSeq can take them without a read.
  // Without, its consumers read the log.
  previousMaxSeq?: bigint;
  rows?: readonly AppendedRow[];
}

// Appends commit in seq order (they take the bus's append lock), but their answers reach this
// process on different connections, and were often handled the other way round: a complete append
// that starts after one not handed on yet waits for it, at most HOLD_MS. One that does not come
// (another process's) lets the held ones go in order; their consumers then read the log.
const HOLD_MS = 20;

interface BusOrder {
  last?: bigint; // the highest seq handed on
  held: Map<bigint, Appended>; // by previousMaxSeq
  timer?: NodeJS.Timeout;
}

const buses = new Map<string, BusOrder>();

function handOn(order: BusOrder, appended: Appended): void {
  emitter.emit('appended', appended);
  if (order.last === undefined || appended.maxSeq > order.last) order.last = appended.maxSeq;
}

function handOnHeld(order: BusOrder, all: boolean): void {
  for (;;) {
    const next =
      order.last !== undefined && order.held.has(order.last)
        ? order.held.get(order.last)
        : all
          ? [...order.held.values()].sort((a, b) =>
              Number((a.previousMaxSeq ?? 0n) - (b.previousMaxSeq ?? 0n)),
            )[0]
          : undefined;
    if (!next) break;
    order.held.delete(next.previousMaxSeq as bigint);
    handOn(order, next);
  }
  if (order.held.size === 0 && order.timer) {
    clearTimeout(order.timer);
    order.timer = undefined;
  }
}

export const appendedEvents = {
  emit(appended: Appended): void {
    let order = buses.get(appended.busId);
    if (!order) {
      order = { held: new Map() };
      buses.set(appended.busId, order);
    }
    const prev = appended.previousMaxSeq;
    if (prev === undefined || !appended.rows || order.last === undefined || prev <= order.last) {
      handOn(order, appended);
      handOnHeld(order, false);
      return;
    }
    order.held.set(prev, appended);
    const o = order;
    order.timer ??= setTimeout(() => {
      o.timer = undefined;
      handOnHeld(o, true);
    }, HOLD_MS);
    order.timer.unref?.();
  },
  on(listener: (appended: Appended) => void): () => void {
    emitter.on('appended', listener);
    return () => emitter.off('appended', listener);
  },
};
