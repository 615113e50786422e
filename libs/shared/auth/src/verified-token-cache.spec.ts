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

  it('vouches for a verified token until it expires, by the same clock rule as jsonwebtoken', () => {
    const cache = new VerifiedTokenCache();
    cache.set('k1:a', claims(), key, 'k1');
    const keys = (kid: string) => (kid === 'k1' ? key : undefined); // asked by the kid it was set with
    expect(cache.get('k1:a', keys, 1_999_999)).toMatchObject({ exp: 2000 });
    expect(cache.get('k1:b', keys, 1_000_000)).toBeUndefined(); // never verified
    expect(cache.get('k1:a', keys, 2_000_000)).toBeUndefined(); // exp reached: the full check says why
    expect(cache.get('k1:a', keys, 1_500_000)).toBeUndefined(); // and it is gone
  });

  it('no longer vouches once the key of its kid changed or is gone, nor before nbf', () => {
    const cache = new VerifiedTokenCache();
    cache.set('k1:a', claims(), key, 'k1');
    expect(cache.get('k1:a', () => other, 1_500_000)).toBeUndefined();
    cache.set('k1:a', claims(), key, 'k1');
    expect(cache.get('k1:a', () => undefined, 1_500_000)).toBeUndefined();
    cache.set('k1:n', claims({ nbf: 1600 }), key, 'k1');
    expect(cache.get('k1:n', () => key, 1_500_000)).toBeUndefined();
    expect(cache.get('k1:n', () => key, 1_600_000)).toMatchObject({ nbf: 1600 });
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('k1:a', claims(), key, 'k1');
    cache.set('k1:b', claims(), key, 'k1');
    cache.set('k1:c', claims(), key, 'k1');
    expect(cache.get('k1:a', () => key, 1_500_000)).toBeUndefined();
    expect(cache.get('k1:c', () => key, 1_500_000)).toBeDefined();
  });
});
