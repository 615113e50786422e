import { accessTokenClaimsProblem, accessTokenHeader } from './access-token-policy';

const jwt = (header: object) => `${Buffer.from(JSON.stringify(header)).toString('base64url')}.e30.sig`;
const claims = {
  sub: '0193f4d0-6a3b-7c1e-8d2f-1234567890ab',
  token_use: 'merchant_access',
  exp: 2_000_000_000,
  iat: 1_900_000_000,
};

describe('access token policy', () => {
  it('wants a kid and typ at+jwt in the header', () => {
    expect(accessTokenHeader(jwt({ alg: 'ES256', kid: 'k', typ: 'at+jwt' }))).toEqual({
      kid: 'k',
      typ: 'at+jwt',
    });
    expect(accessTokenHeader(jwt({ alg: 'ES256', kid: 'k', typ: 'application/AT+JWT' }))).toBeDefined();
    expect(accessTokenHeader(jwt({ alg: 'ES256', kid: 'k', typ: 'JWT' }))).toBeUndefined();
    expect(accessTokenHeader(jwt({ alg: 'ES256', kid: 'k' }))).toBeUndefined();
    expect(accessTokenHeader(jwt({ alg: 'ES256', typ: 'at+jwt' }))).toBeUndefined();
    expect(accessTokenHeader('not a jwt')).toBeUndefined();
  });

  it('wants exp, iat, a UUID sub and our token_use', () => {
    expect(accessTokenClaimsProblem(claims)).toBeUndefined();
    const { exp: _e, ...noExp } = claims;
    const { iat: _i, ...noIat } = claims;
    expect(accessTokenClaimsProblem(noExp)).toMatch(/exp/);
    expect(accessTokenClaimsProblem(noIat)).toMatch(/iat/);
    expect(accessTokenClaimsProblem({ ...claims, exp: '2000000000' })).toMatch(/exp/);
    expect(accessTokenClaimsProblem({ ...claims, sub: 'merchant-1' })).toMatch(/sub/);
    expect(accessTokenClaimsProblem({ ...claims, sub: `${claims.sub}\u0000` })).toMatch(/sub/);
    expect(accessTokenClaimsProblem({ ...claims, token_use: 'id' })).toMatch(/access token/);
  });
});
