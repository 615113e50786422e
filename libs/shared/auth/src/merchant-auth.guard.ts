import { createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';

import { unauthorized } from '@onramp/http';

import { MERCHANT_JWT } from './merchant-jwt.strategy';
import { AuthenticatedMerchant } from './token-claims';

// 401 problem+json with WWW-Authenticate: Bearer for a missing, expired, forged or wrong token.
@Injectable()
export class MerchantAuthGuard extends AuthGuard(MERCHANT_JWT) {
  override handleRequest<T = AuthenticatedMerchant>(err: unknown, user: T | false): T {
    if (err || !user) throw unauthorized();
    return user;
  }
}

export const CurrentMerchant = createParamDecorator((_data: unknown, ctx: ExecutionContext): string => {
  const req = ctx.switchToHttp().getRequest<{ user?: AuthenticatedMerchant }>();
  if (!req.user) throw unauthorized();
  return req.user.merchantId;
});
