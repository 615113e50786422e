import { formatPacking, packingOf } from './chain-blocks';

describe('block packing of a burst', () => {
  it('counts blocks, the empty ones and those of one transaction', () => {
    expect(packingOf([50, 50, 0, 1, 1, 0, 12])).toEqual({
      blocks: 7,
      empty: 2,
      single: 2,
      transactions: 114,
    });
  });

  it('reads as transactions a block', () => {
    expect(formatPacking(packingOf([50, 49, 1, 0]))).toBe('4 blocks of 25.0 tx (1 empty, 1 of one)');
    expect(formatPacking(packingOf([]))).toBe('0 blocks of 0 tx (0 empty, 0 of one)');
  });
});
