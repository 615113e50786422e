import { ConsumedRecord } from './event-transport';
import { BatchGather } from './batch-gather';

const rec = (partition: number, offset: number): ConsumedRecord => ({
  topic: 't',
  partition,
  offset: String(offset),
  key: `k${partition}`,
  value: '{}',
  headers: {},
});
const ids = (rs: ConsumedRecord[]) => rs.map((r) => `${r.partition}:${r.offset}`);

describe('BatchGather', () => {
  it('hands the chunks submitted in one tick (one per partition of a fetch) over in one call, each partition in order', async () => {
    const calls: string[][] = [];
    const gather = new BatchGather(async (rs) => void calls.push(ids(rs)), 100);
    await Promise.all([
      gather.submit([rec(0, 5), rec(0, 6)]),
      gather.submit([rec(3, 1)]),
      gather.submit([rec(7, 9), rec(7, 10)]),
    ]);
    expect(calls).toEqual([['0:5', '0:6', '3:1', '7:9', '7:10']]);
  });

  it('settles a submit only after the call holding its chunk returned', async () => {
    let finish!: () => void;
    const gather = new BatchGather(() => new Promise<void>((resolve) => (finish = resolve)), 100);
    let settled = false;
    const done = gather.submit([rec(0, 1)]).then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false); // the handler has not returned: its offset must not be resolved yet
    finish();
    await done;
    expect(settled).toBe(true);
  });

  it('splits a group larger than the limit between whole chunks, and fails only the calls that failed', async () => {
    const calls: string[][] = [];
    const gather = new BatchGather(async (rs) => {
      calls.push(ids(rs));
      if (rs.some((r) => r.partition === 2)) throw new Error('transaction failed');
    }, 3);
    const results = await Promise.allSettled([
      gather.submit([rec(0, 1), rec(0, 2)]),
      gather.submit([rec(1, 1)]),
      gather.submit([rec(2, 1), rec(2, 2)]),
      gather.submit([rec(3, 1)]),
    ]);
    expect(calls).toEqual([
      ['0:1', '0:2', '1:1'],
      ['2:1', '2:2', '3:1'],
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'rejected']);
  });

  it('spreads a large fetch over up to four transactions at once, by whole chunks', async () => {
    const sizes: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const gather = new BatchGather(async (rs) => {
      sizes.push(rs.length);
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
    }, 100);
    const chunk = (p: number) => Array.from({ length: 20 }, (_, i) => rec(p, i));
    await Promise.all(Array.from({ length: 8 }, (_, p) => gather.submit(chunk(p))));
    expect(sizes).toEqual([40, 40, 40, 40]);
    expect(maxInFlight).toBe(4);

    // a chunk that comes while four run waits for one of them: never a fifth transaction at once
    maxInFlight = 0;
    const busy = Array.from({ length: 4 }, (_, p) => gather.submit(chunk(p).concat(chunk(p + 10))));
    await new Promise((r) => setImmediate(r));
    await Promise.all([...busy, gather.submit(chunk(20))]);
    expect(maxInFlight).toBe(4);
  });

  it('takes a chunk submitted while a call runs in a call of its own', async () => {
    const calls: string[][] = [];
    const gather = new BatchGather(async (rs) => {
      calls.push(ids(rs));
      await new Promise((r) => setTimeout(r, 5));
    }, 100);
    const first = gather.submit([rec(0, 1)]);
    await new Promise((r) => setImmediate(r));
    await Promise.all([first, gather.submit([rec(1, 1)])]);
    expect(calls).toEqual([['0:1'], ['1:1']]);
  });

  describe('records that may wait for company (mayWaitMs)', () => {
    const of = (topic: string, partition: number, offset: number): ConsumedRecord => ({
      ...rec(partition, offset),
      topic,
    });
    const mayWaitMs = (topic: string) => (topic === 'slow' ? 40 : 0);

    it('hands one over at once on a quiet consumer', async () => {
      const calls: number[] = [];
      const gather = new BatchGather(async () => void calls.push(Date.now()), 100, { mayWaitMs });
      const submitted = Date.now();
      await gather.submit([of('slow', 0, 1)]);
      expect(calls).toHaveLength(1);
      expect(calls[0]! - submitted).toBeLessThan(30);
    });

    it('gathers what comes within the wait after a call began into one call, not spread', async () => {
      const calls: string[][] = [];
      const gather = new BatchGather(async (rs) => void calls.push(ids(rs)), 100, { mayWaitMs });
      await gather.submit([of('slow', 0, 1)]); // a call began now
      const later = Array.from({ length: 24 }, (_, p) => gather.submit([of('slow', p + 1, 1)]));
      await new Promise((r) => setTimeout(r, 10));
      expect(calls).toHaveLength(1); // the 24 still wait for company
      await Promise.all(later);
      // one call: 24 records that may not wait would have gone in three, side by side
      expect(calls.slice(1).map((c) => c.length)).toEqual([24]);
    });

    it('hands everything over at once when a record that may not wait arrives', async () => {
      const calls: string[][] = [];
      const gather = new BatchGather(async (rs) => void calls.push(ids(rs)), 100, { mayWaitMs });
      await gather.submit([of('slow', 0, 1)]);
      const started = Date.now();
      await Promise.all([gather.submit([of('slow', 1, 1)]), gather.submit([of('fast', 2, 1)])]);
      expect(Date.now() - started).toBeLessThan(30);
      expect(calls.slice(1)).toEqual([['1:1', '2:1']]);
    });
  });
});
