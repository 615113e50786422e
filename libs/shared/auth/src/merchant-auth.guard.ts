import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

import { unauthorized } from '@onramp/http';

import { MERCHANT_JWT } from './merchant-jwt.strategy';
import { AuthenticatedMerchant } from './token-claims';

// 401 problem+json with WWW-Authenticate: Bearer for a missing, expired, forged or wrong token.
@Injectable()
export class MerchantAuthGuard extends AuthGuard(MERCHANT_JWT) {
  override handleRequest<T = AuthenticatedMerchant>(err: unknown, user: T | false, info?: unknown): T {
    if (err || !user) throw unauthorized(unauthorizedDetail(info));
    return user;
  }
}

// passport-jwt reports why it refused in `info`: an expired token deserves a different word than a
// missing one (the first needs a new token, the second a header). Nothing more about a bad token.
export function unauthorizedDetail(info: unknown): string | undefined {
  const name = info instanceof Error ? info.name : undefined;
  const message = info instanceof Error ? info.message : '';
  if (name === 'TokenExpiredError') return 'the Bearer token has expired: fetch a new one with POST /auth/token';
  if (/no auth token/i.test(message))
    return 'a Bearer token is required: send Authorization: Bearer <token from POST /auth/token>';
  return undefined;
}

export const CurrentMerchant = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<{ user?: AuthenticatedMerchant }>();
  if (!req.user) throw unauthorized();
  return req.user.merchantId;
});
