import { ConfigError, int, loadEnv, oneOf, str } from './env';

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
