import { FastifyInstance } from 'fastify';

import { gatewayAdminHeaders } from '@onramp/auth';
import { badRequest, ProblemException, sendProblem } from '@onramp/http';

import { GatewayConfig, UpstreamName } from '../config';
import { AdminAuth, authenticateOperator, operatorOf } from './admin-auth';

// The services that keep an admin audit log (orders' admin API only reads).
const AUDITED: UpstreamName[] = ['auth', 'kyc', 'paymentIngest', 'chainSettlement', 'webhookDispatch'];

interface AuditRecord {
  id: string;
  at: string;
}

// GET /admin/audit: every service's audit log merged, newest first (`read` scope). Pages back with
// `before=<the last record's at>`. One service that does not answer fails the request (502/504):
// an audit view silently missing a service would mislead.
export function registerAuditRoute(
  fastify: FastifyInstance,
  config: Pick<GatewayConfig, 'upstreams' | 'upstreamTimeoutMs'>,
  auth: AdminAuth,
): void {
  fastify.get('/admin/audit', { preHandler: authenticateOperator(auth, 'read') }, async (request, reply) => {
    const path = request.url.split('?')[0];
    const params = new URLSearchParams(request.url.split('?')[1] ?? '');
    const limitText = params.get('limit') ?? '50';
    const before = params.get('before');
    if (!/^\d{1,2}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 50)
      return sendProblem(reply, badRequest('limit must be an integer between 1 and 50'), path);
    if (before !== null && Number.isNaN(Date.parse(before)))
      return sendProblem(reply, badRequest('before must be an ISO 8601 time'), path);
    const query = new URLSearchParams({ limit: limitText, ...(before ? { before } : {}) }).toString();
    const operator = operatorOf(request)!;
    try {
      const pages = await Promise.all(
        AUDITED.map(async (name) => {
          const target = `/admin/audit-log?${query}`;
          const res = await fetch(`${config.upstreams[name]}${target}`, {
            headers: {
              ...gatewayAdminHeaders(auth.serviceSecret!, 'GET', target, operator),
              'x-request-id': String(request.headers['x-request-id']),
            },
            signal: AbortSignal.timeout(config.upstreamTimeoutMs),
          });
          if (!res.ok) throw new ProblemException(502, `${name} answered ${res.status} for its audit log`);
          return (await res.json()) as AuditRecord[];
        }),
      );
      const merged = pages
        .flat()
        .sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id))
        .slice(0, Number(limitText));
      return reply.header('cache-control', 'no-store').send(merged);
    } catch (err) {
      const problem =
        err instanceof ProblemException
          ? err
          : new ProblemException(
              err instanceof Error && err.name === 'TimeoutError' ? 504 : 502,
              'an audit log did not answer',
            );
      return sendProblem(reply, problem, path);
    }
  });
}
