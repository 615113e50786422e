import { InFlightTracker } from './in-flight-tracker';

describe('InFlightTracker', () => {
  it('counts per merchant and in total, and forgets idle merchants', () => {
    const t = new InFlightTracker();
    t.acquire('a');
    t.acquire('a');
    t.acquire('b');
    expect(t.total()).toBe(3);
    expect(t.of('a')).toBe(2);
    expect(t.snapshot()).toEqual({ merchantIds: ['a', 'b'], counts: [2, 1] });
    t.release('a');
    t.release('b');
    expect(t.snapshot()).toEqual({ merchantIds: ['a'], counts: [1] });
    t.release('a');
    t.release('a'); // a stray release never goes negative
    expect(t.total()).toBe(0);
    expect(t.of('a')).toBe(0);
  });
});
