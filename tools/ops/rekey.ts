// `npm run rekey`
//
// Operator tool: after putting a new KYC_ENCRYPTION_KEY first (the old one moved to
// KYC_PREVIOUS_ENCRYPTION_KEYS and kyc restarted), re-seals all KYC PII and KYC idempotency records
// under the new key. Resumable; safe beside a running kyc. When it reports 0 left, the previous keys
// can be dropped from KYC_PREVIOUS_ENCRYPTION_KEYS.
// Env: DATABASE_URL (a role that may update the kyc schema), KYC_ENCRYPTION_KEY,
// KYC_PREVIOUS_ENCRYPTION_KEYS. Exit 0: done; 2: an error.
import { ConfigError, loadEnv, str } from '@onramp/config';
import { rekeyKyc } from '@onramp/ops';

async function main(): Promise<number> {
  const env = loadEnv({
    DATABASE_URL: str(),
    KYC_ENCRYPTION_KEY: str(),
    KYC_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
  });
  const previous = env.KYC_PREVIOUS_ENCRYPTION_KEYS.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const report = await rekeyKyc({
    databaseUrl: env.DATABASE_URL,
    keys: [env.KYC_ENCRYPTION_KEY, ...previous],
  });
  process.stdout.write(
    `[rekey] kyc: ${report.kycUsers} users and ${report.idempotencyRecords} idempotency records re-sealed under key ${report.keyId}\n`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[rekey] ${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
