import { IncomingHttpHeaders } from 'node:http';

import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { FastifyRequest } from 'fastify';

import { constantTimeEqual } from '@onramp/crypto';
import { ProblemException, SharedProblemTypes } from '@onramp/http';

import { ADMIN_KEY_SOURCE, AdminKeySource } from './admin-key.source';
import { AuthGuardProblemTypes } from './auth-guard-problem-types';

// The admin key arrives as `Authorization: Bearer <key>` or `X-Admin-Key: <key>`.
export function presentedAdminKey(headers: IncomingHttpHeaders): string | undefined {
  const explicit = headers['x-admin-key'];
  if (typeof explicit === 'string' && explicit.length > 0) return explicit;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return match?.[1];
}

// Operators only (the gateway exposes /admin/* on loopback). No key configured = API switched off.
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(@Inject(ADMIN_KEY_SOURCE) private readonly source: AdminKeySource) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.source.adminApiKey;
    if (!expected) {
      throw new ProblemException(503, 'admin API disabled: ADMIN_API_KEY is not set', {
        type: AuthGuardProblemTypes.AdminDisabled,
      });
    }
    const presented = presentedAdminKey(context.switchToHttp().getRequest<FastifyRequest>().headers);
    if (presented === undefined || !constantTimeEqual(presented, expected)) {
      throw new ProblemException(
        401,
        'a valid admin API key is required (Authorization: Bearer or X-Admin-Key)',
        {
          type: SharedProblemTypes.Unauthorized,
          headers: { 'WWW-Authenticate': 'Bearer realm="onramp-admin"' },
        },
      );
    }
    return true;
  }
}
