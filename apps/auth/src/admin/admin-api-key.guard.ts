import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';

import { constantTimeEqual } from '@onramp/crypto';
import { ProblemException } from '@onramp/http';

import { AUTH_CONFIG, AuthConfig } from '../config';

// The admin key arrives as `Authorization: Bearer <key>` or `X-Admin-Key: <key>`.
export function presentedAdminKey(headers: FastifyRequest['headers']): string | undefined {
  const explicit = headers['x-admin-key'];
  if (typeof explicit === 'string' && explicit.length > 0) return explicit;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

// Operators only (the gateway exposes /admin/* on loopback). No key configured = API switched off.
@Injectable()
export class AdminApiKeyGuard implements CanActivate {
  constructor(@Inject(AUTH_CONFIG) private readonly config: AuthConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.config.adminApiKey;
    if (!expected) {
      throw new ProblemException(503, 'admin API disabled: ADMIN_API_KEY is not set', {
        type: 'https://onramp.dev/problems/admin-disabled',
      });
    }
    const presented = presentedAdminKey(context.switchToHttp().getRequest<FastifyRequest>().headers);
    if (presented === undefined || !constantTimeEqual(presented, expected)) {
      throw new ProblemException(
        401,
        'a valid admin API key is required (Authorization: Bearer or X-Admin-Key)',
        {
          type: 'https://onramp.dev/problems/unauthorized',
          headers: { 'WWW-Authenticate': 'Bearer realm="onramp-admin"' },
        },
      );
    }
    return true;
  }
}
