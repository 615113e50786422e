import { randomUUID } from 'node:crypto';

import { ACCESS_TOKEN_USE, AccessTokenClaims } from '@onramp/auth';

export interface ClaimsInput {
  merchantId: string;
  tokenVersion: number;
  issuer: string;
  audience: string;
  ttlSeconds: number;
  now: Date;
  jti?: string;
}

// Exactly what libs/shared/auth verifies: iss, aud, exp, iat, a UUID sub, token_use, and ver
// (the merchant token version, against the revocation list).
export function buildAccessTokenClaims(input: ClaimsInput): AccessTokenClaims {
  const iat = Math.floor(input.now.getTime() / 1000);
  return {
    iss: input.issuer,
    aud: input.audience,
    sub: input.merchantId,
    iat,
    exp: iat + input.ttlSeconds,
    jti: input.jti ?? randomUUID(),
    token_use: ACCESS_TOKEN_USE,
    ver: input.tokenVersion,
  };
}
