import {
  compareDecimal,
  fromScaled,
  fromScaledFixed,
  multiplyTruncate,
  normalizeDecimal,
  toScaled,
} from './decimal';
import { fromWireNumber, parseEurAmount, toWireNumber } from './amounts';

describe('decimal', () => {
  it('scales and formats without losing a cent', () => {
    expect(toScaled('10.05', 2)).toBe(1005n);
    expect(toScaled('0.1', 6)).toBe(100000n);
    expect(fromScaled(1005n, 2)).toBe('10.05');
    expect(fromScaled(1000000n, 6)).toBe('1');
    expect(fromScaledFixed(1050n, 2)).toBe('10.50');
    expect(normalizeDecimal('010.500')).toBe('10.5');
  });

  it('rejects extra precision and non-numbers', () => {
    expect(() => toScaled('1.005', 2)).toThrow();
    expect(toScaled('1.000', 2)).toBe(100n);
    expect(() => toScaled('1e3', 2)).toThrow();
    expect(() => toScaled('-1', 2)).toThrow();
  });

  it('multiplies exactly and truncates to the target scale', () => {
    // 0.1 * 3 is 0.30000000000000004 in binary floats
    expect(multiplyTruncate('0.1', '3', 6)).toBe('0.3');
    expect(multiplyTruncate('100.00', '1.0692', 6)).toBe('106.92');
    expect(multiplyTruncate('33.33', '1.0799999', 6)).toBe('35.996396');
    expect(multiplyTruncate('0.01', '0.0000009', 6)).toBe('0');
  });

  it('compares', () => {
    expect(compareDecimal('1.50', '1.5')).toBe(0);
    expect(compareDecimal('1.49', '1.5')).toBe(-1);
  });

  it('parses EUR amounts: positive, at most 2 decimals', () => {
    expect(parseEurAmount('99.99')).toBe(9999n);
    expect(() => parseEurAmount('0')).toThrow();
    expect(() => parseEurAmount('1.001')).toThrow();
    expect(toWireNumber('10.50')).toBe(10.5);
  });

  it('reads a JSON number back as the decimal JSON printed, and refuses what is no decimal', () => {
    expect(fromWireNumber(100.1)).toBe('100.1');
    expect(fromWireNumber(107.02692)).toBe('107.02692');
    expect(fromWireNumber(0.000001)).toBe('0.000001');
    expect(fromWireNumber(0)).toBe('0');
    expect(toWireNumber(fromWireNumber(0.1 + 0.2))).toBe(0.1 + 0.2);
    expect(() => fromWireNumber(-1)).toThrow();
    expect(() => fromWireNumber(1e-7)).toThrow();
    expect(() => fromWireNumber(Number.NaN)).toThrow();
  });
});
