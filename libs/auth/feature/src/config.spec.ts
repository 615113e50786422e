import { DEVELOPMENT_KEYS } from '@onramp/crypto';

import { loadAuthConfig } from './config';

const base = { DATABASE_URL: 'postgres://localhost/x' };
const SANDBOX_KEY = '6f6e72616d702d73616e64626f782d617574682d6b65792d656e637279707421';

describe('loadAuthConfig', () => {
  it('runs a sandbox without keys', () => {
    expect(loadAuthConfig(base).keyEncryptionKey).toBe(SANDBOX_KEY);
  });

  it('refuses production without the key encryption key, or with the public sandbox one', () => {
    expect(() => loadAuthConfig({ ...base, ONRAMP_MODE: 'production' })).toThrow(
      'AUTH_KEY_ENCRYPTION_KEY is required in production',
    );
    expect(() =>
      loadAuthConfig({
        ...base,
        ONRAMP_MODE: 'production',
        AUTH_KEY_ENCRYPTION_KEY: SANDBOX_KEY.toUpperCase(),
      }),
    ).toThrow('AUTH_KEY_ENCRYPTION_KEY must not be a public development key in production');
    // The same bytes in base64, and another service's development key: refused too.
    for (const key of [Buffer.from(SANDBOX_KEY, 'hex').toString('base64'), DEVELOPMENT_KEYS.kycEncryption]) {
      expect(() =>
        loadAuthConfig({ ...base, ONRAMP_MODE: 'production', AUTH_KEY_ENCRYPTION_KEY: key }),
      ).toThrow('public development key');
    }
    expect(
      loadAuthConfig({ ...base, ONRAMP_MODE: 'production', AUTH_KEY_ENCRYPTION_KEY: 'b'.repeat(64) }).mode,
    ).toBe('production');
  });

  it('reads the older keys of the ring, each 32 bytes, none a development key in production', () => {
    const old = '22'.repeat(32);
    expect(
      loadAuthConfig({ ...base, AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: ` ${old}, ` }).previousKeyEncryptionKeys,
    ).toEqual([old]);
    expect(loadAuthConfig(base).previousKeyEncryptionKeys).toEqual([]);
    expect(() => loadAuthConfig({ ...base, AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: 'short' })).toThrow(
      'AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS entry 1 must be 32 bytes',
    );
    const prod = { ...base, ONRAMP_MODE: 'production', AUTH_KEY_ENCRYPTION_KEY: '33'.repeat(32) };
    expect(() =>
      loadAuthConfig({ ...prod, AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: `${old},${SANDBOX_KEY}` }),
    ).toThrow('AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS entry 2 must not be a public development key in production');
  });
});
