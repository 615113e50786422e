import { randomUUID } from 'node:crypto';

import { Appended, appendedEvents } from './appended-events';

const append = (busId: string, previousMaxSeq: bigint, maxSeq: bigint): Appended => ({
  busId,
  records: [{ topic: 't', partition: 0 }],
  previousMaxSeq,
  maxSeq,
  rows: [],
});

describe('appendedEvents', () => {
  const seen: Array<[string, bigint]> = [];
  let off: () => void;
  beforeEach(() => {
    seen.length = 0;
    off = appendedEvents.on((a) => seen.push([a.busId, a.maxSeq]));
  });
  afterEach(() => off());

  it('hands complete appends on in seq order when their answers came the other way round', () => {
    const bus = randomUUID();
    appendedEvents.emit(append(bus, 0n, 2n));
    appendedEvents.emit(append(bus, 5n, 7n)); // waits for 2..5
    appendedEvents.emit(append(bus, 7n, 9n)); // waits too
    expect(seen).toEqual([[bus, 2n]]);
    appendedEvents.emit(append(bus, 2n, 5n));
    expect(seen).toEqual([
      [bus, 2n],
      [bus, 5n],
      [bus, 7n],
      [bus, 9n],
    ]);
  });

  it('lets held appends go, in order, when the one before them does not come', async () => {
    const bus = randomUUID();
    appendedEvents.emit(append(bus, 0n, 1n));
    appendedEvents.emit(append(bus, 4n, 6n));
    appendedEvents.emit(append(bus, 2n, 4n)); // 1..2 was another process's
    expect(seen).toEqual([[bus, 1n]]);
    await new Promise((r) => setTimeout(r, 60));
    expect(seen).toEqual([
      [bus, 1n],
      [bus, 4n],
      [bus, 6n],
    ]);
  });

  it('keeps each bus in its own order, and hands on at once what is not complete', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    appendedEvents.emit(append(a, 0n, 10n));
    appendedEvents.emit(append(b, 0n, 3n));
    appendedEvents.emit({ busId: a, records: [], maxSeq: 12n }); // a publish: no rows
    appendedEvents.emit(append(a, 12n, 13n));
    expect(seen).toEqual([
      [a, 10n],
      [b, 3n],
      [a, 12n],
      [a, 13n],
    ]);
  });
});
