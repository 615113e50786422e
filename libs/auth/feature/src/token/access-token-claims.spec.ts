import { buildAccessTokenClaims } from './access-token-claims';

describe('buildAccessTokenClaims', () => {
  const base = {
    merchantId: '0b7d3c1e-5a7f-4d1e-9a53-2f6f1c1d2e3f',
    tokenVersion: 0,
    issuer: 'onramp-auth',
    audience: 'onramp-api',
    ttlSeconds: 900,
    now: new Date('2026-01-02T03:04:05.678Z'),
  };

  it('issues a merchant access token for the merchant, expiring ttl seconds after issue', () => {
    const claims = buildAccessTokenClaims(base);
    expect(claims).toEqual({
      iss: 'onramp-auth',
      aud: 'onramp-api',
      sub: base.merchantId,
      iat: 1767323045,
      exp: 1767323045 + 900,
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      token_use: 'merchant_access',
      ver: 0,
    });
  });

  it('gives every token its own jti', () => {
    expect(buildAccessTokenClaims(base).jti).not.toBe(buildAccessTokenClaims(base).jti);
  });
});
