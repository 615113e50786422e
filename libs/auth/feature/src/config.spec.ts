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
});
