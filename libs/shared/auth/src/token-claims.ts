// What every service checks beyond signature and exp: the algorithm is pinned, iss/aud must match,
// and the token must be a merchant access token (not some other JWT signed by the same key).
export const JWT_ALGORITHM = 'ES256' as const;
export const ACCESS_TOKEN_TYPE = 'at+jwt';
export const ACCESS_TOKEN_USE = 'merchant_access';

export interface AccessTokenClaims {
  sub: string; // merchant id
  iss: string;
  aud: string;
  exp: number;
  iat: number;
  jti: string;
  token_use: typeof ACCESS_TOKEN_USE;
  ver?: number; // the merchant's token version at issue; absent counts as 0
}

// GET {AUTH_URL}/.well-known/token-revocations: per rotated merchant, the lowest `ver` still valid.
export interface TokenRevocations {
  minimumVersions: Record<string, number>;
}

export interface AuthenticatedMerchant {
  merchantId: string;
}
