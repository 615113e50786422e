import { KeyObject } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';

import { commonEnv, loadEnv } from '@onramp/config';

import { accessTokenClaimsProblem, accessTokenHeader } from './access-token-policy';
import { JwksCache } from './jwks-cache';
import { RevocationCache } from './revocation-cache';
import { VerifiedTokenCache } from './verified-token-cache';
import { AccessTokenClaims, AuthenticatedMerchant, JWT_ALGORITHM } from './token-claims';

export const MERCHANT_JWT = 'merchant-jwt';

// Where merchant access tokens come from and whom they are for.
export interface MerchantAuthConfig {
  authUrl: string; // the auth service: its JWKS and revocation list
  issuer: string;
  audience: string;
}

export const MERCHANT_AUTH_CONFIG = Symbol('MERCHANT_AUTH_CONFIG');

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadMerchantAuthConfig(source: NodeJS.ProcessEnv): MerchantAuthConfig {
  const env = loadEnv(
    { AUTH_URL: commonEnv.AUTH_URL, JWT_ISSUER: commonEnv.JWT_ISSUER, JWT_AUDIENCE: commonEnv.JWT_AUDIENCE },
    source,
  );
  return { authUrl: env.AUTH_URL, issuer: env.JWT_ISSUER, audience: env.JWT_AUDIENCE };
}

type Request = Parameters<Strategy['authenticate']>[0];

const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();
const kidOf = (token: string): string | undefined => accessTokenHeader(token)?.kid;

@Injectable()
export class MerchantJwtStrategy extends PassportStrategy(Strategy, MERCHANT_JWT) {
  private readonly revocations: RevocationCache;
  private readonly jwks: JwksCache;
  private readonly verified = new VerifiedTokenCache();

  constructor(@Inject(MERCHANT_AUTH_CONFIG) config: MerchantAuthConfig) {
    const jwks = new JwksCache(`${config.authUrl}/.well-known/jwks.json`);
    const revocations = new RevocationCache(`${config.authUrl}/.well-known/token-revocations`);
    super({
      jwtFromRequest: bearerToken,
      passReqToCallback: true,
      algorithms: [JWT_ALGORITHM],
      issuer: config.issuer,
      audience: config.audience,
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
    this.jwks = jwks;
  }

  // A token verified before (see VerifiedTokenCache) skips the signature check; everything else,
  // and every token the cache does not vouch for, goes through passport-jwt as before.
  override authenticate(req: Request, options?: object): void {
    const token = bearerToken(req);
    const claims = token ? this.verified.get(token, (kid) => this.jwks.current(kid)) : undefined;
    if (!token || !claims) return super.authenticate(req, options);
    this.merchantOf(claims).then(
      (merchant) => (merchant ? this.success(merchant) : this.fail(401)),
      (err: unknown) => this.error(err as Error),
    );
  }

  // passport-jwt's verify callback, once it checked the token's signature: a token it accepts is
  // remembered (a cached one is not looked at again: its header was read when it entered).
  async validate(req: Request, payload: AccessTokenClaims): Promise<AuthenticatedMerchant | false> {
    const merchant = await this.merchantOf(payload);
    if (merchant) this.remember(bearerToken(req), payload);
    return merchant;
  }

  private async merchantOf(payload: AccessTokenClaims): Promise<AuthenticatedMerchant | false> {
    if (accessTokenClaimsProblem(payload as unknown as Record<string, unknown>)) return false;
    const merchantId = payload.sub.toLowerCase();
    if (await this.revocations.isRevoked(merchantId, payload.ver)) return false;
    return { merchantId };
  }

  // After passport-jwt verified it: the key its kid names is the one that just checked it.
  private remember(token: string | null, payload: AccessTokenClaims): void {
    const kid = token ? kidOf(token) : undefined;
    const key = kid === undefined ? undefined : this.jwks.current(kid);
    if (token && kid !== undefined && key) this.verified.set(token, payload, key, kid);
  }
}
