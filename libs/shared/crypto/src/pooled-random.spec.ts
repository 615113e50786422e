import { pooledRandomBytes } from './pooled-random';

describe('pooledRandomBytes', () => {
  it('gives the size asked for, never the same bytes twice, across refills and past the pool', () => {
    const draws = Array.from({ length: 2000 }, (_, i) => pooledRandomBytes(1 + (i % 24)));
    draws.forEach((bytes, i) => expect(bytes).toHaveLength(1 + (i % 24)));
    const long = draws.filter((b) => b.length >= 12).map((b) => b.toString('hex'));
    expect(new Set(long).size).toBe(long.length);
    expect(pooledRandomBytes(8192)).toHaveLength(8192);
    // each is its own buffer: changing one leaves the next draws alone
    const first = pooledRandomBytes(16);
    first.fill(0);
    expect(pooledRandomBytes(16).equals(Buffer.alloc(16))).toBe(false);
  });
});
