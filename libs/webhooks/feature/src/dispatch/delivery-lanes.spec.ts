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

  // The order of sends is what a pass over every lane in turn gives, repeated until nothing more can
  // start (the lane served goes to the back): checked against that rule written out plainly, over
  // random adds, starts and ends, with both limits binding at times.
  it('starts sends in the order of passes over the lanes in turn, whatever came before', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 200; run++) {
      const [max, perMerchant] = [1 + random(6), 1 + random(3)];
      const lanes = new DeliveryLanes<string>(max, perMerchant);
      const model = new Map<string, { waiting: string[]; sending: number }>();
      let sendingTotal = 0;
      const modelStart = (): string[] => {
        const out: string[] = [];
        let progress = true;
        while (progress && sendingTotal < max) {
          progress = false;
          for (const [id, lane] of [...model]) {
            if (sendingTotal >= max) break;
            if (lane.sending >= perMerchant || lane.waiting.length === 0) continue;
            out.push(lane.waiting.shift() as string);
            lane.sending++;
            sendingTotal++;
            model.delete(id);
            model.set(id, lane);
            progress = true;
          }
        }
        return out;
      };
      const underWay: Array<[string, number]> = [];
      for (let step = 0; step < 40; step++) {
        const op = random(3);
        if (op === 0) {
          const id = `m${random(4)}`;
          const item = `${id}-${step}`;
          lanes.add(id, item);
          if (!model.has(id)) model.set(id, { waiting: [], sending: 0 });
          model.get(id)!.waiting.push(item);
        } else if (op === 1) {
          const started = lanes.start(step);
          expect(started.map((s) => s.item)).toEqual(modelStart());
          for (const s of started) underWay.push([s.merchantId, s.startedAt]);
        } else if (underWay.length > 0) {
          const [id, at] = underWay.splice(random(underWay.length), 1)[0];
          lanes.sent(id, at);
          model.get(id)!.sending--;
          sendingTotal--;
        }
      }
    }
  });
});
