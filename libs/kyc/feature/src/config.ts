import { ConfigError, defaultPorts, int, loadEnv, serviceBasics, serviceEnv, str } from '@onramp/config';
import { DEVELOPMENT_KEYS, isDevelopmentKey, parseKey, payerDataEnv, payerDataKeyRing } from '@onramp/crypto';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

export const KYC_SCHEMA = 'kyc';

// A fixed, public key so a sandbox starts with no setup; refused in production mode.
export const DEV_KYC_ENCRYPTION_KEY = DEVELOPMENT_KEYS.kycEncryption;

const kycEnv = {
  ...serviceEnv,
  KYC_SERVICE_PORT: int({ default: defaultPorts.kycService, min: 0, max: 65535 }),
  KYC_ENCRYPTION_KEY: str({ optional: true }),
  // Keys that sealed PII before KYC_ENCRYPTION_KEY, comma-separated: they still open it (each sealed
  // value names its key id) until `npm run rekey` has re-sealed everything under the current key.
  KYC_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
  // The payer-data ring shared with payment-ingest (docs/security.md, PII at rest): kyc only seals the
  // holder's name it announces in kyc.user.registered with it, for payment-ingest's payer-name policy.
  ...payerDataEnv,
};

export interface KycConfig {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
  encryptionKey: string;
  previousEncryptionKeys: string[];
  payerDataKeys: string[]; // newest first: the first seals
  runtime: KycRuntime; // what the shared libs are given
}

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadKycConfig(source: NodeJS.ProcessEnv): KycConfig {
  const env = loadEnv(kycEnv, source);
  const key = env.KYC_ENCRYPTION_KEY || (env.ONRAMP_MODE === 'sandbox' ? DEV_KYC_ENCRYPTION_KEY : '');
  if (!key) throw new ConfigError('invalid configuration: KYC_ENCRYPTION_KEY is required in production mode');
  if (env.ONRAMP_MODE === 'production' && isDevelopmentKey(key)) {
    throw new ConfigError(
      'invalid configuration: KYC_ENCRYPTION_KEY must not be a public development key in production',
    );
  }
  try {
    parseKey(key);
  } catch {
    throw new ConfigError(
      'invalid configuration: KYC_ENCRYPTION_KEY must be 32 bytes (64 hex chars or base64)',
    );
  }
  const previous = env.KYC_PREVIOUS_ENCRYPTION_KEYS.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  for (const [i, old] of previous.entries()) {
    try {
      parseKey(old);
    } catch {
      throw new ConfigError(
        `invalid configuration: KYC_PREVIOUS_ENCRYPTION_KEYS entry ${i + 1} must be 32 bytes (64 hex chars or base64)`,
      );
    }
  }
  return {
    ...serviceBasics(env),
    port: env.KYC_SERVICE_PORT,
    encryptionKey: key,
    previousEncryptionKeys: previous,
    payerDataKeys: payerDataKeyRing(env, env.ONRAMP_MODE === 'production'),
    runtime: loadKycRuntime(source),
  };
}

export const KYC_CONFIG = Symbol('KYC_CONFIG');

export type KycRuntime = ServiceRuntime;

// What this service gives the shared libs, which never read the environment themselves.
export function loadKycRuntime(source: NodeJS.ProcessEnv): ServiceRuntime {
  return loadServiceRuntime(source);
}
