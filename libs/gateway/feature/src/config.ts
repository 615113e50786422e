import { adminApiKeyProblem, serviceSecretFor } from '@onramp/auth';
import { bool, commonEnv, ConfigError, defaultPorts, int, loadEnv, str } from '@onramp/config';
import { isDevelopmentKey } from '@onramp/crypto';
import { DEFAULT_BODY_LIMIT } from '@onramp/http';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

import { fetchOperatorKeys, LiveOperators } from './admin/live-operators';
import { OperatorDirectory, parseOperatorKeys } from './admin/operator-directory';

import type { RateLimits } from './edge/rate-limit';
import { TrustedProxies } from './edge/trusted-proxies';

const port = (fallback: number) => int({ default: fallback, min: 0, max: 65535 });
const localUrl = (p: number) => `http://127.0.0.1:${p}`;

export const gatewayEnvSpec = {
  ONRAMP_MODE: commonEnv.ONRAMP_MODE,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  GATEWAY_HOST: str({ default: '0.0.0.0' }),
  BASE_PORT: port(defaultPorts.base),
  KYC_PORT: port(defaultPorts.kyc),
  ADMIN_PORT: port(defaultPorts.admin),
  AUTH_URL: commonEnv.AUTH_URL,
  KYC_SERVICE_URL: str({ default: localUrl(defaultPorts.kycService) }),
  ORDERS_URL: str({ default: localUrl(defaultPorts.orders) }),
  PAYMENT_INGEST_URL: str({ default: localUrl(defaultPorts.paymentIngest) }),
  CHAIN_SETTLEMENT_URL: str({ default: localUrl(defaultPorts.chainSettlement) }),
  WEBHOOK_DISPATCH_URL: str({ default: localUrl(defaultPorts.webhookDispatch) }),
  GATEWAY_BODY_LIMIT_BYTES: int({ default: DEFAULT_BODY_LIMIT, min: 1 }),
  UPSTREAM_CONNECT_TIMEOUT_MS: int({ default: 3000, min: 1 }),
  UPSTREAM_TIMEOUT_MS: int({ default: 30000, min: 1 }),
  // Comma-separated CIDR ranges (or addresses) of the ingress / load balancers in front. Only
  // connections from these may set X-Forwarded-For/-Proto/-Host; empty: nobody may.
  GATEWAY_TRUSTED_PROXIES: str({ default: '' }),
  GATEWAY_HOST_ROUTING: bool({ default: false }),
  // 429 + Retry-After past these (0 disables): per client address on every request, then per
  // credential, per client address on /auth/token, failed token requests per merchant id.
  RATE_LIMIT_PER_CLIENT_PER_SECOND: int({ default: 400, min: 0 }),
  RATE_LIMIT_PER_CLIENT_BURST: int({ default: 800, min: 1 }),
  RATE_LIMIT_PER_SECOND: int({ default: 200, min: 0 }),
  RATE_LIMIT_BURST: int({ default: 400, min: 1 }),
  AUTH_FAILURE_LIMIT_PER_MINUTE: int({ default: 30, min: 0 }),
  AUTH_FAILURE_LIMIT_BURST: int({ default: 20, min: 1 }),
  ADMIN_RATE_LIMIT_PER_SECOND: int({ default: 20, min: 0 }),
  ADMIN_RATE_LIMIT_BURST: int({ default: 40, min: 1 }),
  AUTH_TOKEN_RATE_LIMIT_PER_SECOND: int({ default: 50, min: 0 }),
  AUTH_TOKEN_RATE_LIMIT_BURST: int({ default: 100, min: 1 }),
  BASE_HOSTNAME: str({ optional: true }),
  // Sandbox dashboard: a transaction's explorer URL with {hash} in it (empty: the hash as text).
  DASHBOARD_EXPLORER_TX_URL: str({ default: '' }),
  KYC_HOSTNAME: str({ optional: true }),
  // The admin listener authenticates operators (auth's operators, OPERATOR_KEYS kept for deployments
  // that configured them, or the bootstrap ADMIN_API_KEY) and forwards to the services with its own service credential (SERVICE_SECRET, identity gateway).
  ADMIN_API_KEY: str({ optional: true }),
  OPERATOR_KEYS: str({ default: '' }),
  SERVICE_SECRET: str({ optional: true }),
};

export type UpstreamName =
  | 'auth'
  | 'kyc'
  | 'orders'
  | 'paymentIngest'
  | 'chainSettlement'
  | 'webhookDispatch';

export interface GatewayConfig {
  mode: 'sandbox' | 'production';
  logLevel: string;
  host: string;
  ports: { base: number; kyc: number; admin: number };
  upstreams: Record<UpstreamName, string>;
  bodyLimit: number;
  connectTimeoutMs: number;
  upstreamTimeoutMs: number;
  trustedProxies: TrustedProxies;
  rateLimits: RateLimits;
  dashboard: { explorerTxUrl: string };
  // Operators and the credential /admin requests are forwarded with (none: the admin API answers 503).
  admin: { operators: OperatorDirectory; serviceSecret?: string };
  // Ingress deployments: one port, the listener picked by the Host header.
  hostRouting?: { baseHostname: string; kycHostname: string };
  runtime: GatewayRuntime; // what the shared libs are given: logging, tracing, metrics access
}

export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadGatewayConfig(source: NodeJS.ProcessEnv): GatewayConfig {
  const env = loadEnv(gatewayEnvSpec, source);
  const upstreams: Record<UpstreamName, string> = {
    auth: env.AUTH_URL,
    kyc: env.KYC_SERVICE_URL,
    orders: env.ORDERS_URL,
    paymentIngest: env.PAYMENT_INGEST_URL,
    chainSettlement: env.CHAIN_SETTLEMENT_URL,
    webhookDispatch: env.WEBHOOK_DISPATCH_URL,
  };
  const problems: string[] = [];
  const names: Record<UpstreamName, string> = {
    auth: 'AUTH_URL',
    kyc: 'KYC_SERVICE_URL',
    orders: 'ORDERS_URL',
    paymentIngest: 'PAYMENT_INGEST_URL',
    chainSettlement: 'CHAIN_SETTLEMENT_URL',
    webhookDispatch: 'WEBHOOK_DISPATCH_URL',
  };
  for (const [name, url] of Object.entries(upstreams) as [UpstreamName, string][]) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url))
      problems.push(`${names[name]} must be an http(s) origin like http://127.0.0.1:3010, got "${url}"`);
    upstreams[name] = url.replace(/\/$/, '');
  }
  if (env.GATEWAY_HOST_ROUTING && (!env.BASE_HOSTNAME || !env.KYC_HOSTNAME)) {
    problems.push('GATEWAY_HOST_ROUTING needs BASE_HOSTNAME and KYC_HOSTNAME');
  }
  let trustedProxies = new TrustedProxies([]);
  try {
    trustedProxies = TrustedProxies.parse(env.GATEWAY_TRUSTED_PROXIES);
  } catch (err) {
    problems.push(`GATEWAY_TRUSTED_PROXIES: ${(err as Error).message}`);
  }
  if (env.DASHBOARD_EXPLORER_TX_URL && !/^https?:\/\/\S*\{hash\}/.test(env.DASHBOARD_EXPLORER_TX_URL)) {
    problems.push('DASHBOARD_EXPLORER_TX_URL must be an http(s) URL containing {hash}');
  }
  const production = env.ONRAMP_MODE === 'production';
  const adminKeyProblem = adminApiKeyProblem(env.ONRAMP_MODE, env.ADMIN_API_KEY);
  if (adminKeyProblem) problems.push(adminKeyProblem);
  if (production && env.ADMIN_API_KEY && isDevelopmentKey(env.ADMIN_API_KEY))
    problems.push('ADMIN_API_KEY must not be a public development key in production');
  let operators = parseOperatorKeys('');
  try {
    operators = parseOperatorKeys(env.OPERATOR_KEYS);
  } catch (err) {
    problems.push(`OPERATOR_KEYS: ${(err as Error).message}`);
  }
  if (production && env.SERVICE_SECRET && isDevelopmentKey(env.SERVICE_SECRET))
    problems.push('SERVICE_SECRET must not be a public development key in production');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);

  const serviceSecret = serviceSecretFor(env.ONRAMP_MODE, env.SERVICE_SECRET);
  return {
    mode: env.ONRAMP_MODE,
    runtime: loadGatewayRuntime(source),
    logLevel: env.LOG_LEVEL,
    host: env.GATEWAY_HOST,
    ports: { base: env.BASE_PORT, kyc: env.KYC_PORT, admin: env.ADMIN_PORT },
    upstreams,
    bodyLimit: env.GATEWAY_BODY_LIMIT_BYTES,
    connectTimeoutMs: env.UPSTREAM_CONNECT_TIMEOUT_MS,
    upstreamTimeoutMs: env.UPSTREAM_TIMEOUT_MS,
    trustedProxies,
    rateLimits: {
      client: { ratePerSecond: env.RATE_LIMIT_PER_CLIENT_PER_SECOND, burst: env.RATE_LIMIT_PER_CLIENT_BURST },
      authFailures: {
        ratePerSecond: env.AUTH_FAILURE_LIMIT_PER_MINUTE / 60,
        burst: env.AUTH_FAILURE_LIMIT_BURST,
      },
      admin: { ratePerSecond: env.ADMIN_RATE_LIMIT_PER_SECOND, burst: env.ADMIN_RATE_LIMIT_BURST },
      api: { ratePerSecond: env.RATE_LIMIT_PER_SECOND, burst: env.RATE_LIMIT_BURST },
      token: { ratePerSecond: env.AUTH_TOKEN_RATE_LIMIT_PER_SECOND, burst: env.AUTH_TOKEN_RATE_LIMIT_BURST },
    },
    dashboard: { explorerTxUrl: env.DASHBOARD_EXPLORER_TX_URL },
    admin: {
      // In production the bootstrap key only creates the first operator (operator-directory.ts).
      operators: new OperatorDirectory(operators, env.ADMIN_API_KEY || undefined, {
        production,
        live: serviceSecret ? new LiveOperators(fetchOperatorKeys(upstreams.auth, serviceSecret)) : undefined,
      }),
      serviceSecret,
    },
    hostRouting: env.GATEWAY_HOST_ROUTING
      ? { baseHostname: env.BASE_HOSTNAME, kycHostname: env.KYC_HOSTNAME }
      : undefined,
  };
}

// No database, no event transport, no callers of its own: the gateway only proxies.
export type GatewayRuntime = Pick<ServiceRuntime, 'logging' | 'tracing' | 'metrics'>;

// What this service gives the shared libs, which never read the environment themselves.
export function loadGatewayRuntime(source: NodeJS.ProcessEnv): GatewayRuntime {
  return loadServiceRuntime(source, ['logging', 'tracing', 'metrics']);
}
