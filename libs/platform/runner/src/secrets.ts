import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  ADMIN_API_KEY: string;
  DEMO_MERCHANT_ID: string;
  DEMO_MERCHANT_SECRET: string;
  AUTH_KEY_ENCRYPTION_KEY: string;
  KYC_ENCRYPTION_KEY: string;
  WEBHOOK_SECRET_ENCRYPTION_KEY: string;
  PAYER_DATA_ENCRYPTION_KEY: string; // kyc, payment-ingest and webhook-dispatch share it
  // Production mode only: it refuses the published development secret and anvil's public accounts,
  // so a local production run gets a service secret and a hot wallet of its own.
  SERVICE_SECRET?: string;
  SERVICE_CALLERS?: string;
  SETTLEMENT_SIGNER_KEY?: string;
}

// Local (sandbox) secrets: taken from the launching environment when set, else generated once and kept in the
// data dir (mode 0600) so a restart can still decrypt what it stored and the demo merchant stays the same.
export function loadLocalSecrets(
  dataDir: string | undefined,
  env: NodeJS.ProcessEnv,
  mode: 'sandbox' | 'production' = 'sandbox',
): LocalSecrets {
  const file = dataDir ? join(dataDir, 'secrets.json') : undefined;
  const stored: Partial<LocalSecrets> =
    file && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  const key = () => randomBytes(32).toString('hex');
  const secrets: LocalSecrets = {
    ADMIN_API_KEY: env.ADMIN_API_KEY || stored.ADMIN_API_KEY || randomBytes(24).toString('base64url'),
    DEMO_MERCHANT_ID: env.DEMO_MERCHANT_ID || stored.DEMO_MERCHANT_ID || randomUUID(),
    DEMO_MERCHANT_SECRET:
      env.DEMO_MERCHANT_SECRET || stored.DEMO_MERCHANT_SECRET || randomBytes(32).toString('base64url'),
    AUTH_KEY_ENCRYPTION_KEY: env.AUTH_KEY_ENCRYPTION_KEY || stored.AUTH_KEY_ENCRYPTION_KEY || key(),
    KYC_ENCRYPTION_KEY: env.KYC_ENCRYPTION_KEY || stored.KYC_ENCRYPTION_KEY || key(),
    WEBHOOK_SECRET_ENCRYPTION_KEY:
      env.WEBHOOK_SECRET_ENCRYPTION_KEY || stored.WEBHOOK_SECRET_ENCRYPTION_KEY || key(),
    PAYER_DATA_ENCRYPTION_KEY: env.PAYER_DATA_ENCRYPTION_KEY || stored.PAYER_DATA_ENCRYPTION_KEY || key(),
  };
  if (mode === 'production') {
    const serviceSecret = env.SERVICE_SECRET || stored.SERVICE_SECRET || randomBytes(32).toString('base64url');
    secrets.SERVICE_SECRET = serviceSecret;
    // one process, one secret: orders (/internal) and the gateway (/admin) both sign with it
    secrets.SERVICE_CALLERS = env.SERVICE_CALLERS || `orders=${serviceSecret},gateway=${serviceSecret}`;
    secrets.SETTLEMENT_SIGNER_KEY =
      env.SETTLEMENT_SIGNER_KEY || stored.SETTLEMENT_SIGNER_KEY || `0x${randomBytes(32).toString('hex')}`;
  }
  if (file) {
    mkdirSync(dataDir!, { recursive: true });
    // keeps the production-only entries through a sandbox run, so the hot wallet stays the same
    writeFileSync(file, JSON.stringify({ ...stored, ...secrets }, null, 2), { mode: 0o600 });
  }
  return secrets;
}
