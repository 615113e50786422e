import { isAddress } from 'ethers';

import { SeededRandom } from './seeded-random';

describe('SeededRandom', () => {
  it('repeats the same run from the same seed and another from another', () => {
    const draw = (seed: number) => {
      const rng = new SeededRandom(seed);
      return [rng.next(), rng.int(1, 100), rng.address()];
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('stays in range and makes valid addresses', () => {
    const rng = new SeededRandom(1);
    for (let i = 0; i < 1000; i++) {
      const n = rng.int(5, 9);
      expect(n >= 5 && n <= 9 && Number.isInteger(n)).toBe(true);
    }
    expect(isAddress(rng.address())).toBe(true);
  });
});
