import { DEVELOPMENT_KEYS, isDevelopmentKey } from './development-keys';

describe('isDevelopmentKey', () => {
  it('knows every published key in hex and base64, and nothing else', () => {
    for (const key of Object.values(DEVELOPMENT_KEYS)) {
      const bytes = /^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, 'hex') : Buffer.from(key, 'base64');
      expect(isDevelopmentKey(key)).toBe(true);
      expect(isDevelopmentKey(bytes.toString('hex').toUpperCase())).toBe(true);
      expect(isDevelopmentKey(bytes.toString('base64'))).toBe(true);
      expect(isDevelopmentKey(bytes.toString('base64url'))).toBe(true);
    }
    expect(isDevelopmentKey('11'.repeat(32))).toBe(false);
    expect(isDevelopmentKey('not a key')).toBe(false);
  });
});
