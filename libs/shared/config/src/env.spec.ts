import { ConfigError, duration, int, loadEnv, oneOf, str } from './env';

describe('loadEnv', () => {
  const spec = { PORT: int({ default: 3000, min: 1 }), MODE: oneOf(['a', 'b'] as const, { default: 'a' }), URL: str() };

  it('applies defaults and parses values', () => {
    expect(loadEnv(spec, { URL: 'x', PORT: '8080' })).toEqual({ PORT: 8080, MODE: 'a', URL: 'x' });
  });

  it('fails fast naming every bad variable', () => {
    expect(() => loadEnv(spec, { PORT: 'eighty', MODE: 'c' })).toThrow(ConfigError);
    try {
      loadEnv(spec, { PORT: 'eighty', MODE: 'c' });
    } catch (err) {
      expect((err as Error).message).toMatch(/PORT must be an integer/);
      expect((err as Error).message).toMatch(/MODE must be one of a, b/);
      expect((err as Error).message).toMatch(/URL is required/);
    }
  });
});

describe('duration', () => {
  const ttl = duration({ default: '7d', minMs: 1000 });
  it('reads days, hours, minutes, seconds and milliseconds; a bare number is seconds', () => {
    expect(ttl(undefined, 'ORDER_TTL')).toBe(7 * 86_400_000);
    expect(ttl('12h', 'ORDER_TTL')).toBe(12 * 3_600_000);
    expect(ttl('30m', 'ORDER_TTL')).toBe(1_800_000);
    expect(ttl('45', 'ORDER_TTL')).toBe(45_000);
    expect(ttl('1500ms', 'ORDER_TTL')).toBe(1500);
  });
  it('names the variable when the value is not a duration or too short', () => {
    expect(() => ttl('7 days', 'ORDER_TTL')).toThrow('ORDER_TTL must be a duration like 7d');
    expect(() => ttl('-1d', 'ORDER_TTL')).toThrow(ConfigError);
    expect(() => ttl('10ms', 'ORDER_TTL')).toThrow('ORDER_TTL must be at least 1000 ms');
  });
});
