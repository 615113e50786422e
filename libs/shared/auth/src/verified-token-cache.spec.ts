import { generateKeyPairSync } from 'node:crypto';

import { AccessTokenClaims } from './token-claims';
import { VerifiedTokenCache } from './verified-token-cache';

describe('VerifiedTokenCache', () => {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  const claims = (extra: Partial<AccessTokenClaims> & { nbf?: number } = {}): AccessTokenClaims => ({
    sub: '2f1d3c4b-0000-4000-8000-000000000001',
    iss: 'onramp-auth',
    aud: 'onramp',
    iat: 1000,
    exp: 2000,
    jti: 'j',
    token_use: 'merchant_access',
    ...extra,
  });
  const kidOf = (token: string) => token.split(':')[0];

  it('vouches for a verified token until it expires, by the same clock rule as jsonwebtoken', () => {
    const cache = new VerifiedTokenCache();
    cache.set('k1:a', claims(), key);
    const keys = () => key;
    expect(cache.get('k1:a', keys, kidOf, 1_999_999)).toMatchObject({ exp: 2000 });
    expect(cache.get('k1:b', keys, kidOf, 1_000_000)).toBeUndefined(); // never verified
    expect(cache.get('k1:a', keys, kidOf, 2_000_000)).toBeUndefined(); // exp reached: the full check says why
    expect(cache.get('k1:a', keys, kidOf, 1_500_000)).toBeUndefined(); // and it is gone
  });

  it('no longer vouches once the key of its kid changed or is gone, nor before nbf', () => {
    const cache = new VerifiedTokenCache();
    cache.set('k1:a', claims(), key);
    expect(cache.get('k1:a', () => other, kidOf, 1_500_000)).toBeUndefined();
    cache.set('k1:a', claims(), key);
    expect(cache.get('k1:a', () => undefined, kidOf, 1_500_000)).toBeUndefined();
    cache.set('k1:n', claims({ nbf: 1600 }), key);
    expect(cache.get('k1:n', () => key, kidOf, 1_500_000)).toBeUndefined();
    expect(cache.get('k1:n', () => key, kidOf, 1_600_000)).toMatchObject({ nbf: 1600 });
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('k1:a', claims(), key);
    cache.set('k1:b', claims(), key);
    cache.set('k1:c', claims(), key);
    expect(cache.get('k1:a', () => key, kidOf, 1_500_000)).toBeUndefined();
    expect(cache.get('k1:c', () => key, kidOf, 1_500_000)).toBeDefined();
  });
});
