import { KeyObject } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';

import { commonEnv, loadEnv } from '@onramp/config';

import { accessTokenClaimsProblem, accessTokenHeader } from './access-token-policy';
import { JwksCache } from './jwks-cache';
import { RevocationCache } from './revocation-cache';
import { AccessTokenClaims, AuthenticatedMerchant, JWT_ALGORITHM } from './token-claims';

export const MERCHANT_JWT = 'merchant-jwt';

@Injectable()
export class MerchantJwtStrategy extends PassportStrategy(Strategy, MERCHANT_JWT) {
  private readonly revocations: RevocationCache;

  constructor() {
    const env = loadEnv({
      AUTH_URL: commonEnv.AUTH_URL,
      JWT_ISSUER: commonEnv.JWT_ISSUER,
      JWT_AUDIENCE: commonEnv.JWT_AUDIENCE,
    });
    const jwks = new JwksCache(`${env.AUTH_URL}/.well-known/jwks.json`);
    const revocations = new RevocationCache(`${env.AUTH_URL}/.well-known/token-revocations`);
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: [JWT_ALGORITHM],
      issuer: env.JWT_ISSUER,
      audience: env.JWT_AUDIENCE,
      ignoreExpiration: false,
      // jsonwebtoken verifies with a KeyObject as well as a PEM; the typings only name string | Buffer.
      secretOrKeyProvider: (
        _req: unknown,
        rawJwt: string,
        done: (err: unknown, key?: string | Buffer) => void,
      ) => {
        const give = done as (err: unknown, key?: KeyObject) => void;
        // No key for a token whose header is not an access token's: it fails like a forged one.
        const header = accessTokenHeader(rawJwt);
        if (!header) return give(null, undefined);
        jwks.getKey(header.kid).then(
          (key) => give(null, key),
          () => give(null, undefined),
        );
      },
    });
    this.revocations = revocations;
  }

  async validate(payload: AccessTokenClaims): Promise<AuthenticatedMerchant | false> {
    if (accessTokenClaimsProblem(payload as unknown as Record<string, unknown>)) return false;
    const merchantId = payload.sub.toLowerCase();
    if (await this.revocations.isRevoked(merchantId, payload.ver)) return false;
    return { merchantId };
  }
}
