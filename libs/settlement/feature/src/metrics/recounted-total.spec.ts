import { RecountedTotal } from './recounted-total';

describe('RecountedTotal', () => {
  // a clock the test moves, and a count that takes `tookMs` of it
  const setup = (tookMs: number) => {
    let clock = 1_000;
    let value = 0;
    let counts = 0;
    const total = new RecountedTotal(
      async () => {
        counts++;
        clock += tookMs;
        return value;
      },
      100,
      50,
      () => clock,
    );
    return {
      total,
      advance: (ms: number) => (clock += ms),
      set: (v: number) => (value = v),
      counts: () => counts,
    };
  };

  it('reports the last count until a hundred times its duration has passed', async () => {
    const t = setup(200);
    t.set(5);
    expect(await t.total.read()).toBe(5);
    t.set(6);
    t.advance(19_999);
    expect(await t.total.read()).toBe(5);
    expect(t.counts()).toBe(1);
    t.advance(1);
    expect(await t.total.read()).toBe(6);
    expect(t.counts()).toBe(2);
  });

  it('counts at every read when a count costs under 50 ms', async () => {
    const t = setup(49);
    t.set(1);
    expect(await t.total.read()).toBe(1);
    t.set(2);
    expect(await t.total.read()).toBe(2);
    expect(t.counts()).toBe(2);
  });

  it('shares a count under way between the reads that arrive meanwhile', async () => {
    let release: (n: number) => void = () => undefined;
    let counts = 0;
    const total = new RecountedTotal(
      () =>
        new Promise<number>((resolve) => {
          counts++;
          release = resolve;
        }),
    );
    const both = Promise.all([total.read(), total.read()]);
    release(7);
    expect(await both).toEqual([7, 7]);
    expect(counts).toBe(1);
  });

  it('counts again at the next read after a count failed', async () => {
    let fail = true;
    const total = new RecountedTotal(async () => {
      if (fail) throw new Error('database down');
      return 3;
    });
    await expect(total.read()).rejects.toThrow('database down');
    fail = false;
    expect(await total.read()).toBe(3);
  });
});
