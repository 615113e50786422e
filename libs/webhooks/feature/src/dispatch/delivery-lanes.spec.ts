import { DeliveryLanes } from './delivery-lanes';

describe('DeliveryLanes', () => {
  it('sends at most the per-merchant limit of a lane at once and the next one as soon as one ends', () => {
    const lanes = new DeliveryLanes<string>(10, 2);
    for (const d of ['a1', 'a2', 'a3', 'a4']) lanes.add('a', d);
    expect(lanes.start(0).map((s) => s.item)).toEqual(['a1', 'a2']);
    expect(lanes.start()).toEqual([]);
    lanes.sent('a', 0);
    expect(lanes.start().map((s) => s.item)).toEqual(['a3']);
    expect(lanes.held()).toBe(4); // ended but not yet released by the dispatcher: still held
    expect(lanes.heldBy({ now: 0, slowMs: 1000, full: 8 })).toEqual({ merchantIds: ['a'], counts: [4] });
  });

  it('keeps a hanging merchant to its own lane: the others are sent meanwhile', () => {
    const lanes = new DeliveryLanes<string>(4, 2);
    for (const d of ['h1', 'h2', 'h3', 'h4']) lanes.add('hanging', d);
    expect(lanes.start().map((s) => s.item)).toEqual(['h1', 'h2']);
    lanes.add('b', 'b1');
    lanes.add('b', 'b2');
    lanes.add('b', 'b3');
    expect(lanes.start().map((s) => s.item)).toEqual(['b1', 'b2']);
    expect(lanes.sending()).toBe(4);
  });

  it('claims no further ahead for a lane whose endpoint is slow to answer', () => {
    const lanes = new DeliveryLanes<string>(10, 2);
    lanes.add('slow', 's1');
    lanes.add('fast', 'f1');
    lanes.start(1000);
    lanes.sent('fast', 1000);
    expect(lanes.heldBy({ now: 1500, slowMs: 1000, full: 8 }).counts).toEqual([1, 1]);
    expect(lanes.heldBy({ now: 2500, slowMs: 1000, full: 8 }).counts).toEqual([8, 1]);
    // one merchant's count, for a hand-off (none held: 0)
    expect(lanes.heldFor('slow', { now: 2500, slowMs: 1000, full: 8 })).toBe(8);
    expect(lanes.heldFor('c', { now: 2500, slowMs: 1000, full: 8 })).toBe(0);
  });

  it('takes turns between lanes under the process-wide limit', () => {
    const lanes = new DeliveryLanes<string>(3, 4);
    for (const d of ['a1', 'a2', 'a3']) lanes.add('a', d);
    for (const d of ['b1', 'b2', 'b3']) lanes.add('b', d);
    expect(lanes.start(5).map((s) => s.item)).toEqual(['a1', 'b1', 'a2']);
    lanes.sent('a', 5);
    expect(lanes.start().map((s) => s.item)).toEqual(['b2']);
  });

  it('forgets a merchant once all it held is released, and hands back what waits', () => {
    const lanes = new DeliveryLanes<string>(10, 1);
    lanes.add('a', 'a1');
    lanes.add('a', 'a2');
    lanes.add('b', 'b1');
    lanes.start(7);
    expect(lanes.takeWaiting()).toEqual(['a2']);
    lanes.sent('a', 7);
    lanes.release('a');
    lanes.release('a'); // a stray release never goes negative
    expect(lanes.heldBy({ now: 7, slowMs: 1000, full: 4 })).toEqual({ merchantIds: ['b'], counts: [1] });
    lanes.sent('b', 7);
    lanes.release('b');
    expect(lanes.held()).toBe(0);
    expect(lanes.sending()).toBe(0);
  });

  it('counts a reserved place as held until it is filled and sent, or released', () => {
    const lanes = new DeliveryLanes<string>(10, 2);
    lanes.reserve('a');
    lanes.reserve('a');
    expect(lanes.heldFor('a', { now: 0, slowMs: 1000, full: 8 })).toBe(2);
    expect(lanes.start(0)).toEqual([]); // nothing to send yet
    lanes.fill('a', 'a1');
    lanes.release('a'); // the other came to nothing
    expect(lanes.held()).toBe(1);
    expect(lanes.start(0)).toEqual([{ merchantId: 'a', item: 'a1', startedAt: 0 }]);
    lanes.sent('a', 0);
    lanes.release('a');
    expect(lanes.held()).toBe(0);
    expect(lanes.heldBy({ now: 0, slowMs: 1000, full: 8 })).toEqual({ merchantIds: [], counts: [] });
  });
});
