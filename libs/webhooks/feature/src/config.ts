import { commonEnv, ConfigError, defaultPorts, EnvOf, int, loadEnv, serviceEnv, str } from '@onramp/config';
import {
  DEVELOPMENT_KEYS,
  isDevelopmentKey,
  keyRingFrom,
  payerDataEnv,
  payerDataKeyRing,
} from '@onramp/crypto';
import { HOUR_MS, parseIp, RetryPolicy } from '@onramp/webhooks-domain';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

export const WEBHOOKS_SCHEMA = 'webhooks';

// Lets `npm start` and tests run without key management; refused in production mode.
export const DEV_SECRET_ENCRYPTION_KEY = DEVELOPMENT_KEYS.webhookSecretEncryption;

// Concurrent sends per dispatcher process. A merchant's deliveries per second are at most its limit
// divided by its endpoint's answer time: at 4, an endpoint answering in 55 ms (what the bench's
// receiver took on a slow machine; across the internet 50-300 ms is usual) capped one merchant below
// 50 payouts/s, and P2's webhook stage queued for seconds (docs/performance-journal.md, 2026-11-29). At 16 it
// kept up. The total scales with it, so one hanging merchant still holds a sixteenth of a process.
export const WEBHOOK_IN_FLIGHT_DEFAULTS = { total: 256, perMerchant: 16 } as const;

export const webhookEnvSpec = {
  NODE_ENV: commonEnv.NODE_ENV,
  ...serviceEnv,
  WEBHOOK_DISPATCH_PORT: int({ default: defaultPorts.webhookDispatch, min: 1, max: 65535 }),
  WEBHOOK_SECRET_ENCRYPTION_KEY: str({ optional: true }),
  // Keys that sealed signing secrets before WEBHOOK_SECRET_ENCRYPTION_KEY, comma-separated: they still
  // open them until `npm run rekey` has re-sealed every endpoint's secret under the current key.
  WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
  // The payer-data ring, shared with payment-ingest (docs/security.md, PII at rest): opens the payer's
  // name in order.completed and seals delivery bodies at rest. The older keys, comma-separated, still
  // open what they sealed until `npm run rekey` has re-sealed it.
  ...payerDataEnv,
  WEBHOOK_POLL_MS: int({ default: 250, min: 10 }),
  WEBHOOK_TIMEOUT_MS: int({ default: 10_000, min: 100 }),
  WEBHOOK_RETRY_BASE_MS: int({ default: 1000, min: 1 }),
  WEBHOOK_RETRY_MAX_MS: int({ default: HOUR_MS, min: 1 }),
  WEBHOOK_RETRY_WINDOW_HOURS: int({ default: 72, min: 0 }),
  WEBHOOK_MAX_IN_FLIGHT: int({ default: WEBHOOK_IN_FLIGHT_DEFAULTS.total, min: 1 }),
  WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: int({ default: WEBHOOK_IN_FLIGHT_DEFAULTS.perMerchant, min: 1 }),
  // Comma-separated IP addresses production webhooks may reach although the address policy forbids
  // them (an in-cluster receiver, a test receiver on loopback); https is still required. Unset: none.
  WEBHOOK_ALLOWED_ADDRESSES: str({ default: '' }),
};

export type WebhookEnv = EnvOf<typeof webhookEnvSpec>;

export interface WebhookDispatchConfig {
  env: WebhookEnv;
  sandbox: boolean;
  allowedAddresses: string[]; // WEBHOOK_ALLOWED_ADDRESSES
  secretEncryptionKey: string;
  secretEncryptionKeys: string[]; // the ring: secretEncryptionKey first, then the previous keys
  payerDataKeys: string[]; // newest first
  retryPolicy: RetryPolicy;
  pollMs: number;
  timeoutMs: number;
  maxInFlight: number;
  maxInFlightPerMerchant: number;
  leaseMs: number;
  runtime: WebhookRuntime; // what the shared libs are given
}

export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadWebhookConfig(source: NodeJS.ProcessEnv): WebhookDispatchConfig {
  const env = loadEnv(webhookEnvSpec, source);
  const sandbox = env.ONRAMP_MODE === 'sandbox';
  const key = env.WEBHOOK_SECRET_ENCRYPTION_KEY;
  if (!sandbox && (key === '' || isDevelopmentKey(key))) {
    throw new ConfigError(
      'invalid configuration: WEBHOOK_SECRET_ENCRYPTION_KEY is required (and not the dev key) in production mode',
    );
  }
  const secretEncryptionKeys = keyRingFrom({
    name: 'WEBHOOK_SECRET_ENCRYPTION_KEY',
    previousName: 'WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS',
    current: key,
    previous: env.WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS,
    production: !sandbox,
    developmentKey: DEV_SECRET_ENCRYPTION_KEY,
  });
  if (!sandbox && env.WEBHOOK_RETRY_WINDOW_HOURS < 72) {
    throw new ConfigError(
      'invalid configuration: WEBHOOK_RETRY_WINDOW_HOURS must be >= 72 in production mode',
    );
  }
  const allowedAddresses = env.WEBHOOK_ALLOWED_ADDRESSES.split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const notIp = allowedAddresses.filter((a) => parseIp(a) === null);
  if (notIp.length > 0) {
    throw new ConfigError(
      `invalid configuration: WEBHOOK_ALLOWED_ADDRESSES must list IP addresses, not ${notIp.join(', ')}`,
    );
  }
  if (env.WEBHOOK_RETRY_MAX_MS < env.WEBHOOK_RETRY_BASE_MS) {
    throw new ConfigError('invalid configuration: WEBHOOK_RETRY_MAX_MS must be >= WEBHOOK_RETRY_BASE_MS');
  }
  return {
    env,
    sandbox,
    allowedAddresses,
    secretEncryptionKey: secretEncryptionKeys[0],
    secretEncryptionKeys,
    payerDataKeys: payerDataKeyRing(env, !sandbox),
    retryPolicy: {
      baseDelayMs: env.WEBHOOK_RETRY_BASE_MS,
      maxDelayMs: env.WEBHOOK_RETRY_MAX_MS,
      windowMs: env.WEBHOOK_RETRY_WINDOW_HOURS * HOUR_MS,
      maxRetryAfterMs: 24 * HOUR_MS,
    },
    pollMs: env.WEBHOOK_POLL_MS,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    maxInFlight: env.WEBHOOK_MAX_IN_FLIGHT,
    maxInFlightPerMerchant: env.WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT,
    // A claimed delivery is re-sent by any worker once this passes (crash recovery): well past the timeout.
    leaseMs: env.WEBHOOK_TIMEOUT_MS + 30_000,
    runtime: loadWebhookRuntime(source),
  };
}

export type WebhookRuntime = ServiceRuntime;

// What this service gives the shared libs, which never read the environment themselves.
export function loadWebhookRuntime(source: NodeJS.ProcessEnv): ServiceRuntime {
  return loadServiceRuntime(source);
}
