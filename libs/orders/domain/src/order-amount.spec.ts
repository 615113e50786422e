import { checkEurAmountFormat, checkOrderAmount } from './order-amount';

const bounds = { min: '1', max: '100000' };

describe('checkOrderAmount', () => {
  it.each([
    [100, '100.00'],
    [10.5, '10.50'],
    [99.99, '99.99'],
    ['10.50', '10.50'],
    ['7', '7.00'],
    ['007.1', '7.10'],
    [1, '1.00'],
    [100000, '100000.00'],
  ])('accepts %p as %s', (input, expected) => {
    expect(checkOrderAmount(input, bounds)).toEqual({ ok: true, amount: expected });
  });

  it.each([
    [10.123, 'at most 2 decimals'],
    ['10.123', 'at most 2 decimals'],
    ['10.500', 'at most 2 decimals'],
    [0.1 + 0.2, 'at most 2 decimals'], // 0.30000000000000004 is not what anyone meant
    [0, 'greater than 0'],
    ['0.00', 'greater than 0'],
    [-5, 'plain decimal'],
    ['-5', 'plain decimal'],
    ['1e3', 'plain decimal'],
    [1e21, 'plain decimal'],
    [1e-7, 'plain decimal'],
    ['10,50', 'plain decimal'],
    [' 10', 'plain decimal'],
    ['10.', 'plain decimal'],
    ['.5', 'plain decimal'],
    ['', 'plain decimal'],
    [Infinity, 'number or a decimal string'],
    [NaN, 'number or a decimal string'],
    [null, 'number or a decimal string'],
    [true, 'number or a decimal string'],
    [{ value: 10 }, 'number or a decimal string'],
  ])('refuses %p (%s)', (input, message) => {
    const result = checkOrderAmount(input, bounds);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });

  it('applies the configured bounds, inclusive', () => {
    expect(checkOrderAmount('0.99', bounds)).toEqual({ ok: false, message: 'amount must be at least 1 EUR' });
    expect(checkOrderAmount(100000.01, bounds)).toEqual({
      ok: false,
      message: 'amount must be at most 100000 EUR',
    });
    expect(checkOrderAmount('25.00', { min: '25', max: '25.00' })).toEqual({ ok: true, amount: '25.00' });
    expect(checkOrderAmount('0.01', { min: '0.01', max: '1' })).toEqual({ ok: true, amount: '0.01' });
  });

  it('checks the format alone without bounds', () => {
    expect(checkEurAmountFormat(1_000_000_000)).toEqual({ ok: true, amount: '1000000000.00' });
  });
});
