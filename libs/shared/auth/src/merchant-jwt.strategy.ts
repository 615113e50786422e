import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';

import { commonEnv, loadEnv } from '@onramp/config';

import { JwksCache } from './jwks-cache';
import { ACCESS_TOKEN_USE, AccessTokenClaims, AuthenticatedMerchant, JWT_ALGORITHM } from './token-claims';

export const MERCHANT_JWT = 'merchant-jwt';

function kidOf(rawJwt: string): string | undefined {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString()) as { kid?: unknown; typ?: unknown };
    return typeof header.kid === 'string' ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

@Injectable()
export class MerchantJwtStrategy extends PassportStrategy(Strategy, MERCHANT_JWT) {
  constructor() {
    const env = loadEnv({ AUTH_URL: commonEnv.AUTH_URL, JWT_ISSUER: commonEnv.JWT_ISSUER, JWT_AUDIENCE: commonEnv.JWT_AUDIENCE });
    const jwks = new JwksCache(`${env.AUTH_URL}/.well-known/jwks.json`);
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [JWT_ALGORITHM],
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ignoreExpiration: false,
      secretOrKeyProvider: (_req: unknown, rawJwt: string, done: (err: unknown, key?: string) => void) => {
        const kid = kidOf(rawJwt);
        if (!kid) return done(null, undefined);
        jwks.getPem(kid).then(
          (pem) => done(null, pem),
          () => done(null, undefined),
        );
      },
    });
  }

  validate(payload: AccessTokenClaims): AuthenticatedMerchant | false {
    if (payload.token_use !== ACCESS_TOKEN_USE || typeof payload.sub !== 'string') return false;
    return { merchantId: payload.sub };
  }
}
