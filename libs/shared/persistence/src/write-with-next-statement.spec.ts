import { paramText } from './write-with-next-statement';

describe('paramText', () => {
  it('gives scalars as text and null as null', () => {
    expect(paramText('x')).toBe('x');
    expect(paramText(12)).toBe('12');
    expect(paramText(12345678901234567890n)).toBe('12345678901234567890');
    expect(paramText(true)).toBe('true');
    expect(paramText(null)).toBeNull();
    expect(paramText(undefined)).toBeNull();
  });

  it('gives a date with its zone', () => {
    expect(paramText(new Date('2026-11-29T15:04:05.678Z'))).toBe('2026-11-29T15:04:05.678Z');
  });

  it('gives an array as a literal with every element quoted and nulls as NULL', () => {
    expect(paramText(['a,b', 'q"', 'b\\s', null, 7])).toBe('{"a,b","q\\"","b\\\\s",NULL,"7"}');
    expect(paramText([])).toBe('{}');
  });
});
