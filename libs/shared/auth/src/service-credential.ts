import { createHmac, timingSafeEqual } from 'node:crypto';

import {
  applyDecorators,
  CanActivate,
  ExecutionContext,
  Inject,
  Injectable,
  Logger,
  UseGuards,
} from '@nestjs/common';

import { commonEnv, ConfigError, loadEnv, str } from '@onramp/config';
import { DEVELOPMENT_KEYS, isDevelopmentKey } from '@onramp/crypto';
import { ProblemException } from '@onramp/http';

import { AuthGuardProblemTypes } from './auth-guard-problem-types';

// Service-to-service requests carry a short-lived HMAC credential of the calling service's
// identity: `v1:<identity>:<unix seconds>:<hex HMAC-SHA256(secret, "v1:identity:ts:METHOD:path")>`.
// The callee knows each allowed caller's secret; a credential is bound to one method and path and
// valid for 60 s either side of the callee's clock. A credential may also be bound to one more value
// (the gateway binds the operator it authenticated): the MAC covers it, after a newline, which no
// request line can contain.

// The only caller a service's /admin/* accepts (AdminGuard): the gateway's admin listener, which
// authenticates the operator and forwards who it is, bound into its service credential.
export const GATEWAY_IDENTITY = 'gateway';
export const SERVICE_CREDENTIAL_HEADER = 'x-service-credential';
export const SERVICE_CREDENTIAL_MAX_SKEW_S = 60;

const mac = (secret: string, message: string): string =>
  createHmac('sha256', secret).update(message).digest('hex');

const signedMessage = (prefix: string, method: string, path: string, bound?: string): string =>
  `${prefix}:${method.toUpperCase()}:${path}${bound === undefined ? '' : `\n${bound}`}`;

export function signServiceRequest(
  identity: string,
  secret: string,
  method: string,
  path: string,
  nowMs = Date.now(),
  bound?: string,
): string {
  const prefix = `v1:${identity}:${Math.floor(nowMs / 1000)}`;
  return `${prefix}:${mac(secret, signedMessage(prefix, method, path, bound))}`;
}

// The caller's identity when the credential is valid for this request, else undefined.
export function verifyServiceRequest(
  credential: string | undefined,
  callers: Readonly<Record<string, string>>,
  method: string,
  path: string,
  nowMs = Date.now(),
  bound?: string,
): string | undefined {
  const m = /^v1:([a-z0-9-]{1,40}):(\d{1,12}):([0-9a-f]{64})$/.exec(credential ?? '');
  if (!m) return undefined;
  const [, identity, ts, given] = m;
  const secret = Object.prototype.hasOwnProperty.call(callers, identity) ? callers[identity] : undefined;
  if (!secret) return undefined;
  if (Math.abs(nowMs / 1000 - Number(ts)) > SERVICE_CREDENTIAL_MAX_SKEW_S) return undefined;
  const expected = mac(secret, signedMessage(`v1:${identity}:${ts}`, method, path, bound));
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given)) ? identity : undefined;
}

// `name=secret,name=secret`: the services allowed to call this one, each with its own secret
// (`gateway` for the admin API, whose operators the gateway authenticates).
export function parseServiceCallers(value: string): Record<string, string> {
  const callers: Record<string, string> = {};
  for (const entry of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1)
      throw new Error(`"${entry.split('=')[0]}=..." is not name=secret`);
    callers[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return callers;
}

// Sandbox without configuration: every service uses the published development secret (refused in
// production, like every development key). Production without configuration: no caller is
// accepted, so /internal answers 401 rather than trusting the network.
export function serviceSecretFor(
  mode: 'sandbox' | 'production',
  configured: string | undefined,
): string | undefined {
  if (configured) return configured;
  return mode === 'sandbox' ? DEVELOPMENT_KEYS.serviceSecret : undefined;
}

// The config parser: an app's config.ts calls it with the environment it was given.
export function loadServiceCallers(source: NodeJS.ProcessEnv): Record<string, string> {
  const env = loadEnv(
    { ONRAMP_MODE: commonEnv.ONRAMP_MODE, SERVICE_CALLERS: str({ optional: true }) },
    source,
  );
  if (env.SERVICE_CALLERS) {
    const callers = parseServiceCallers(env.SERVICE_CALLERS);
    if (env.ONRAMP_MODE === 'production' && Object.values(callers).some((secret) => isDevelopmentKey(secret)))
      throw new ConfigError('SERVICE_CALLERS must not hold a public development key in production');
    return callers;
  }
  return env.ONRAMP_MODE === 'sandbox'
    ? { orders: DEVELOPMENT_KEYS.serviceSecret, gateway: DEVELOPMENT_KEYS.serviceSecret }
    : {};
}

// The callers this service accepts (ServiceCallersModule.forRoot, from the app's config).
export const SERVICE_CALLERS = Symbol('SERVICE_CALLERS');
export type ServiceCallers = Readonly<Record<string, string>>;

@Injectable()
export class ServiceCredentialGuard implements CanActivate {
  private readonly log = new Logger(ServiceCredentialGuard.name);

  private readonly callers: ServiceCallers;

  // The gateway's credential opens /admin only (AdminGuard): it never calls /internal, so a leaked
  // gateway secret does not also read KYC users.
  constructor(@Inject(SERVICE_CALLERS) callers: ServiceCallers) {
    this.callers = Object.fromEntries(Object.entries(callers).filter(([name]) => name !== GATEWAY_IDENTITY));
    if (Object.keys(this.callers).length === 0)
      this.log.warn('SERVICE_CALLERS is not set: every /internal request is refused');
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context
      .switchToHttp()
      .getRequest<{ method: string; url: string; headers: Record<string, unknown> }>();
    const header = req.headers[SERVICE_CREDENTIAL_HEADER];
    const identity = verifyServiceRequest(
      typeof header === 'string' ? header : undefined,
      this.callers,
      req.method,
      req.url,
    );
    if (!identity)
      throw new ProblemException(401, 'a service credential is required', {
        type: AuthGuardProblemTypes.ServiceCredential,
      });
    return true;
  }
}

// On a controller or route that only other services may call, whatever network it listens on.
export const ServiceOnly = (): ClassDecorator & MethodDecorator =>
  applyDecorators(UseGuards(ServiceCredentialGuard));
