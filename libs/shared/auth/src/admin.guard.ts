import {
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
} from '@nestjs/common';

import { ProblemException } from '@onramp/http';

import { AuthGuardProblemTypes } from './auth-guard-problem-types';

import { formatOperator, Operator, OPERATOR_HEADER, parseOperator } from './operator';
import {
  GATEWAY_IDENTITY,
  SERVICE_CALLERS,
  SERVICE_CREDENTIAL_HEADER,
  ServiceCallers,
  signServiceRequest,
  verifyServiceRequest,
} from './service-credential';

type AdminRequest = {
  method: string;
  url: string;
  headers: Record<string, unknown>;
  operator?: Operator;
};

// The headers the gateway adds to an admin request it forwards (also what tests send a service).
export function gatewayAdminHeaders(
  secret: string,
  method: string,
  url: string,
  operator: Operator,
  nowMs = Date.now(),
): Record<string, string> {
  const bound = formatOperator(operator);
  return {
    [OPERATOR_HEADER]: bound,
    [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(GATEWAY_IDENTITY, secret, method, url, nowMs, bound),
  };
}

// /admin/* of a service: 401 unless the request carries the gateway's credential for this method,
// path and operator. The admin key and operator keys never reach a service; a service port reached
// directly (another pod, a port-forward) grants nothing.
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly log = new Logger(AdminGuard.name);
  private readonly secret: string | undefined;

  constructor(@Inject(SERVICE_CALLERS) callers: ServiceCallers) {
    this.secret = callers[GATEWAY_IDENTITY];
    if (!this.secret) this.log.warn('SERVICE_CALLERS has no gateway entry: every /admin request is refused');
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<AdminRequest>();
    const header = (name: string): string | undefined => {
      const value = req.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const bound = header(OPERATOR_HEADER);
    const operator = parseOperator(bound);
    const identity =
      this.secret && operator
        ? verifyServiceRequest(
            header(SERVICE_CREDENTIAL_HEADER),
            { [GATEWAY_IDENTITY]: this.secret },
            req.method,
            req.url,
            Date.now(),
            bound,
          )
        : undefined;
    if (!identity || !operator)
      throw new ProblemException(401, 'the admin API is served through the gateway admin listener only', {
        type: AuthGuardProblemTypes.ServiceCredential,
      });
    req.operator = operator;
    return true;
  }
}

// The operator of an admin request (after AdminGuard).
export const CurrentOperator = createParamDecorator((_data: unknown, context: ExecutionContext): Operator => {
  const operator = context.switchToHttp().getRequest<AdminRequest>().operator;
  if (!operator) throw new Error('CurrentOperator used on a route without AdminGuard');
  return operator;
});

// Who performs an admin action, for the audit log: the operator and the gateway's request id.
export const CurrentAdminActor = createParamDecorator(
  (_data: unknown, context: ExecutionContext): { operator: string; requestId?: string } => {
    const req = context.switchToHttp().getRequest<AdminRequest>();
    if (!req.operator) throw new Error('CurrentAdminActor used on a route without AdminGuard');
    const requestId = req.headers['x-request-id'];
    return { operator: req.operator.id, requestId: typeof requestId === 'string' ? requestId : undefined };
  },
);
