import { commonEnv, ConfigError, loadEnv, str } from '@onramp/config';

// Where AdminKeyGuard reads the expected key. Auth provides its validated config; other services use
// AdminKeyModule.fromEnv(). Read per request, so the object may be a live config.
export const ADMIN_KEY_SOURCE = Symbol('ADMIN_KEY_SOURCE');

export interface AdminKeySource {
  adminApiKey?: string;
}

export const MIN_PRODUCTION_ADMIN_KEY_LENGTH = 24;

// A problem with the key for this mode, or undefined. An unset key is allowed: the admin API is off.
export function adminApiKeyProblem(
  mode: 'sandbox' | 'production',
  key: string | undefined,
): string | undefined {
  if (mode === 'production' && key && key.length < MIN_PRODUCTION_ADMIN_KEY_LENGTH) {
    return `ADMIN_API_KEY must be at least ${MIN_PRODUCTION_ADMIN_KEY_LENGTH} characters in production`;
  }
  return undefined;
}

export function loadAdminKeySource(source: NodeJS.ProcessEnv = process.env): AdminKeySource {
  const env = loadEnv({ ONRAMP_MODE: commonEnv.ONRAMP_MODE, ADMIN_API_KEY: str({ optional: true }) }, source);
  const problem = adminApiKeyProblem(env.ONRAMP_MODE, env.ADMIN_API_KEY);
  if (problem) throw new ConfigError(`invalid configuration: ${problem}`);
  return { adminApiKey: env.ADMIN_API_KEY || undefined };
}
