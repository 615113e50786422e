import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';

import { ProblemException } from '@onramp/http';

import { AuthGuardProblemTypes } from './auth-guard-problem-types';
import {
  GATEWAY_IDENTITY,
  SERVICE_CALLERS,
  SERVICE_CREDENTIAL_HEADER,
  ServiceCallers,
  verifyServiceRequest,
} from './service-credential';

// A route the gateway itself calls, not on an operator's behalf: auth's list of operator key
// hashes, which the admin listener authenticates operators against. Only the gateway's credential
// (no operator bound) opens it; every other caller, orders included, gets a 401. ServiceOnly routes
// keep refusing the gateway: this guard is for the few routes that exist for the gateway alone.
@Injectable()
export class GatewayCredentialGuard implements CanActivate {
  private readonly secret: string | undefined;

  constructor(@Inject(SERVICE_CALLERS) callers: ServiceCallers) {
    this.secret = callers[GATEWAY_IDENTITY];
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context
      .switchToHttp()
      .getRequest<{ method: string; url: string; headers: Record<string, unknown> }>();
    const header = req.headers[SERVICE_CREDENTIAL_HEADER];
    const identity = this.secret
      ? verifyServiceRequest(
          typeof header === 'string' ? header : undefined,
          { [GATEWAY_IDENTITY]: this.secret },
          req.method,
          req.url,
        )
      : undefined;
    if (!identity)
      throw new ProblemException(401, "the gateway's service credential is required", {
        type: AuthGuardProblemTypes.ServiceCredential,
      });
    return true;
  }
}
