import { MAX_RETRY_DELAY_MS, retryDelayMs } from './retry-policy';

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([0, 1, 2, 3].map((n) => retryDelayMs(n, 500))).toEqual([500, 1000, 2000, 4000]);
    expect(retryDelayMs(10, 500)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(1_000_000, 500)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(3, 100, 500)).toBe(500);
  });

  it('treats a negative count as no failure yet', () => {
    expect(retryDelayMs(-1, 250)).toBe(250);
  });
});
