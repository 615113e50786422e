import { IncomingHttpHeaders } from 'node:http';

import { FastifyReply, FastifyRequest } from 'fastify';

import {
  AuthGuardProblemTypes,
  gatewayAdminHeaders,
  Operator,
  OPERATOR_HEADER,
  OperatorScope,
  presentedAdminKey,
  SERVICE_CREDENTIAL_HEADER,
} from '@onramp/auth';
import { ProblemException, sendProblem, SharedProblemTypes } from '@onramp/http';

import { OperatorDirectory } from './operator-directory';

export interface AdminAuth {
  operators: OperatorDirectory;
  serviceSecret?: string;
}

// Reads need `read`; anything else needs the scope of the route it changes.
export function requiredScope(method: string, writeScope: OperatorScope): OperatorScope {
  return method === 'GET' || method === 'HEAD' ? 'read' : writeScope;
}

const OPERATOR = Symbol('operator');
type WithOperator = FastifyRequest & { [OPERATOR]?: Operator };

export const operatorOf = (request: FastifyRequest): Operator | undefined =>
  (request as WithOperator)[OPERATOR];

// Before a request to /admin/* is proxied: who is calling, and may they do this. A callback hook
// (the proxy's preHandler type), around the asynchronous check.
export function authenticateOperator(
  auth: AdminAuth,
  writeScope: OperatorScope,
): (request: FastifyRequest, reply: FastifyReply, done: () => void) => void {
  return (request, reply, done) => {
    const path = request.url.split('?')[0];
    admit(auth, writeScope, request).then(
      (operator) => {
        (request as WithOperator)[OPERATOR] = operator;
        done();
      },
      (err: unknown) => sendProblem(reply, err, path),
    );
  };
}

async function admit(auth: AdminAuth, writeScope: OperatorScope, request: FastifyRequest): Promise<Operator> {
  if (!auth.operators.enabled || !auth.serviceSecret) {
    const missing = auth.serviceSecret
      ? 'neither OPERATOR_KEYS nor ADMIN_API_KEY is set'
      : 'SERVICE_SECRET is not set';
    throw new ProblemException(503, `admin API disabled: ${missing}`, {
      type: AuthGuardProblemTypes.AdminDisabled,
    });
  }
  const operator = await auth.operators.authenticate(presentedAdminKey(request.headers));
  if (operator === 'unavailable')
    throw new ProblemException(503, 'the operator list from auth is unavailable; try again shortly', {
      type: AuthGuardProblemTypes.AdminDisabled,
      headers: { 'Retry-After': '5' },
    });
  if (!operator)
    throw new ProblemException(
      401,
      'a valid operator key is required (Authorization: Bearer or X-Admin-Key)',
      {
        type: SharedProblemTypes.Unauthorized,
        headers: { 'WWW-Authenticate': 'Bearer realm="onramp-admin"' },
      },
    );
  const scope = requiredScope(request.method, writeScope);
  if (!operator.scopes.includes(scope))
    throw new ProblemException(403, `operator ${operator.id} lacks the "${scope}" scope`, {
      type: AuthGuardProblemTypes.OperatorScope,
    });
  return operator;
}

// The operator's credential stops here: the service gets who the operator is, bound into the
// gateway's own service credential for this method and path.
export function adminUpstreamHeaders(
  headers: IncomingHttpHeaders,
  request: FastifyRequest,
  auth: AdminAuth,
  upstreamUrl: string,
): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = { ...headers };
  for (const name of ['authorization', 'x-admin-key', OPERATOR_HEADER, SERVICE_CREDENTIAL_HEADER])
    delete out[name];
  const operator = operatorOf(request);
  if (!operator || !auth.serviceSecret) return out; // refused before proxying; never reached
  return { ...out, ...gatewayAdminHeaders(auth.serviceSecret, request.method, upstreamUrl, operator) };
}
