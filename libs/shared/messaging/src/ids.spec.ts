import { uuidv7 } from './ids';

describe('uuidv7', () => {
  it('puts the 48-bit millisecond timestamp first, then version 7 and the RFC 9562 variant', () => {
    const now = Date.UTC(2026, 10, 23, 22, 30, 0, 123);
    const id = uuidv7(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(now);
    expect(uuidv7(0xffff_ffff_ffff).startsWith('ffffffff-ffff-7')).toBe(true);
    expect(uuidv7(0).startsWith('00000000-0000-7')).toBe(true);
  });

  it('sorts by creation time and never repeats, across refills of its random pool', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => uuidv7(1_700_000_000_000 + i));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const sameMs = new Set(Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000).slice(14)));
    expect(sameMs.size).toBe(1000);
  });
});
