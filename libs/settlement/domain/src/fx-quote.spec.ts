import { InvalidFxInputError, quote, StaleFxRateError } from './fx-quote';

const now = new Date('2025-06-01T12:00:00.000Z');
const base = { fxRateBase: '1.08', fee: '0.01', updatedAt: now, now, maxAgeSeconds: 300 };

describe('quote', () => {
  it('applies the fee to the base rate exactly', () => {
    const q = quote({ ...base, payedAmount: '100' });
    expect(q.fxRateBase).toBe('1.08');
    expect(q.fxRateEffective).toBe('1.0692'); // 1.08 * 0.99 is 1.0692000000000002 in binary floats
    expect(q.sentTokenAmount).toBe('106.92');
    expect(q.baseUnits).toBe(106_920_000n);
    expect(q.fxRateUpdatedAt).toBe(now);
  });

  it.each([
    // payedAmount, exact USDC; binary floats give 107.02691999999999 and 0.31006799999999995
    ['100.10', '107.02692', 107_026_920n],
    ['0.29', '0.310068', 310_068n],
    ['33.33', '35.636436', 35_636_436n],
    ['1234567.89', '1319999.987988', 1_319_999_987_988n],
    ['19.99', '21.373308', 21_373_308n],
  ])('converts %s EUR into exactly %s USDC', (payedAmount, usdc, units) => {
    const q = quote({ ...base, payedAmount });
    expect(q.sentTokenAmount).toBe(usdc);
    expect(q.baseUnits).toBe(units);
  });

  it('truncates to 6 decimals, never rounds up', () => {
    const q = quote({ ...base, fxRateBase: '1.0799999', payedAmount: '33.33' });
    expect(q.fxRateEffective).toBe('1.069199901'); // 1.0799999 * 0.99
    expect(q.sentTokenAmount).toBe('35.636432'); // 35.63643270033 truncated
    expect(q.baseUnits).toBe(35_636_432n);
  });

  it('handles a zero fee and a rate with many decimals', () => {
    const q = quote({ ...base, fee: '0', fxRateBase: '1.123456789', payedAmount: '10' });
    expect(q.fxRateEffective).toBe('1.123456789');
    expect(q.sentTokenAmount).toBe('11.234567');
  });

  it('normalizes the base rate it reports', () => {
    expect(quote({ ...base, fxRateBase: '01.0800', payedAmount: '1' }).fxRateBase).toBe('1.08');
  });

  it('accepts a rate exactly at its max age and refuses an older one', () => {
    const atLimit = new Date(now.getTime() - 300_000);
    expect(quote({ ...base, updatedAt: atLimit, payedAmount: '1' }).sentTokenAmount).toBe('1.0692');
    const stale = new Date(now.getTime() - 300_001);
    expect(() => quote({ ...base, updatedAt: stale, payedAmount: '1' })).toThrow(StaleFxRateError);
  });

  it('refuses nonsense inputs', () => {
    expect(() => quote({ ...base, fee: '1', payedAmount: '1' })).toThrow(InvalidFxInputError);
    expect(() => quote({ ...base, fee: '1.5', payedAmount: '1' })).toThrow(InvalidFxInputError);
    expect(() => quote({ ...base, fxRateBase: '0', payedAmount: '1' })).toThrow(InvalidFxInputError);
    expect(() => quote({ ...base, fxRateBase: '1e3', payedAmount: '1' })).toThrow(InvalidFxInputError);
    expect(() => quote({ ...base, payedAmount: '-1' })).toThrow(InvalidFxInputError);
    expect(() => quote({ ...base, now: new Date('nope'), payedAmount: '1' })).toThrow(InvalidFxInputError);
  });
});
