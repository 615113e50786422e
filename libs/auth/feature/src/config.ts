import {
  commonEnv,
  ConfigError,
  defaultPorts,
  int,
  loadEnv,
  serviceBasics,
  serviceEnv,
  str,
} from '@onramp/config';
import { DEVELOPMENT_KEYS, isDevelopmentKey, parseKey, previousKeys } from '@onramp/crypto';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

export const AUTH_SCHEMA = 'auth';

// Sandbox only: lets `npm start` and tests run without a key; production refuses to boot without one.
const SANDBOX_KEY_ENCRYPTION_KEY = DEVELOPMENT_KEYS.authKeyEncryption;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const authEnvSpec = {
  NODE_ENV: commonEnv.NODE_ENV,
  ...serviceEnv,
  JWT_ISSUER: commonEnv.JWT_ISSUER,
  JWT_AUDIENCE: commonEnv.JWT_AUDIENCE,
  AUTH_PORT: int({ default: defaultPorts.auth, min: 0, max: 65535 }),
  AUTH_TOKEN_TTL_SECONDS: int({ default: 900, min: 1, max: 86400 }),
  // How long a retired signing key stays in the JWKS, so tokens it signed still verify until they expire.
  AUTH_RETIRED_KEY_RETENTION_SECONDS: int({ default: 86400, min: 0 }),
  AUTH_KEY_ENCRYPTION_KEY: str({ optional: true }),
  // The ring's older keys, comma-separated: they still open the signing keys they sealed until
  // `npm run rekey` has re-sealed them under AUTH_KEY_ENCRYPTION_KEY (docs/security.md).
  AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
  DEMO_MERCHANT_ID: str({ optional: true }),
  DEMO_MERCHANT_SECRET: str({ optional: true }),
};

export interface AuthConfig {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
  issuer: string;
  audience: string;
  tokenTtlSeconds: number;
  retiredKeyRetentionSeconds: number;
  keyEncryptionKey: string; // seals signing keys
  previousKeyEncryptionKeys: string[]; // open what they sealed, until a rekey
  demoMerchant?: { id: string; secret: string };
  runtime: AuthRuntime; // what the shared libs are given
}

export const AUTH_CONFIG = Symbol('AUTH_CONFIG');

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadAuthConfig(source: NodeJS.ProcessEnv): AuthConfig {
  const env = loadEnv(authEnvSpec, source);
  const production = env.ONRAMP_MODE === 'production';
  const problems: string[] = [];

  if (production && !env.AUTH_KEY_ENCRYPTION_KEY)
    problems.push('AUTH_KEY_ENCRYPTION_KEY is required in production');
  else if (production && isDevelopmentKey(env.AUTH_KEY_ENCRYPTION_KEY))
    problems.push('AUTH_KEY_ENCRYPTION_KEY must not be a public development key in production');
  const keyEncryptionKey = env.AUTH_KEY_ENCRYPTION_KEY || SANDBOX_KEY_ENCRYPTION_KEY;
  try {
    parseKey(keyEncryptionKey);
  } catch {
    problems.push('AUTH_KEY_ENCRYPTION_KEY must be 32 bytes (64 hex chars or base64)');
  }
  let previousKeyEncryptionKeys: string[] = [];
  try {
    previousKeyEncryptionKeys = previousKeys(
      'AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS',
      env.AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS,
      production,
    );
  } catch (err) {
    problems.push((err as Error).message);
  }
  if (Boolean(env.DEMO_MERCHANT_ID) !== Boolean(env.DEMO_MERCHANT_SECRET)) {
    problems.push('DEMO_MERCHANT_ID and DEMO_MERCHANT_SECRET must be set together');
  }
  if (env.DEMO_MERCHANT_ID && !UUID_RE.test(env.DEMO_MERCHANT_ID))
    problems.push('DEMO_MERCHANT_ID must be a UUID');
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);

  return {
    ...serviceBasics(env),
    port: env.AUTH_PORT,
    issuer: env.JWT_ISSUER,
    audience: env.JWT_AUDIENCE,
    tokenTtlSeconds: env.AUTH_TOKEN_TTL_SECONDS,
    retiredKeyRetentionSeconds: env.AUTH_RETIRED_KEY_RETENTION_SECONDS,
    keyEncryptionKey,
    previousKeyEncryptionKeys,
    demoMerchant: env.DEMO_MERCHANT_ID
      ? { id: env.DEMO_MERCHANT_ID.toLowerCase(), secret: env.DEMO_MERCHANT_SECRET }
      : undefined,
    runtime: loadAuthRuntime(source),
  };
}

export const isUuid = (value: string): boolean => UUID_RE.test(value);

// No event transport (auth neither produces nor consumes events) and no merchant tokens to verify.
export type AuthRuntime = Pick<ServiceRuntime, 'logging' | 'tracing' | 'metrics' | 'callers' | 'database'>;

// What this service gives the shared libs, which never read the environment themselves.
export function loadAuthRuntime(source: NodeJS.ProcessEnv): AuthRuntime {
  return loadServiceRuntime(source, ['logging', 'tracing', 'metrics', 'callers', 'database']);
}
