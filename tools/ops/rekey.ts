// `npm run rekey`
//
// Operator tool: after putting a new key first in a ring (the old one moved to the ring's previous
// keys and the services holding it restarted), re-seals what that ring sealed under the new key:
// - KYC_ENCRYPTION_KEY (+ KYC_PREVIOUS_ENCRYPTION_KEYS): all KYC PII and KYC idempotency records;
// - PAYER_DATA_ENCRYPTION_KEY (+ PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS): the payer's name and IBAN in
//   payments (IBAN indexes recomputed), the KYC holders' names there, the sealed payer name in orders
//   and settlement, webhook delivery bodies; values still plain from before sealing get sealed;
// - WEBHOOK_SECRET_ENCRYPTION_KEY (+ WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS): merchants' webhook
//   signing secrets;
// - AUTH_KEY_ENCRYPTION_KEY (+ AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS): auth's JWT signing keys.
// Give any of the rings. Resumable; safe beside the running services. When it reports 0 left, the
// previous keys can be dropped (payer data: once the topics' retention has dropped older events too).
// Env: DATABASE_URL (a role that may update the schemas of the ring: kyc; payments, orders,
// settlement, webhooks; auth) and the ring variables. Exit 0: done; 2: an error.
import { ConfigError, loadEnv, str } from '@onramp/config';
import { rekeyAuthSigningKeys, rekeyKyc, rekeyPayerData, rekeyWebhookSecrets } from '@onramp/ops';

const list = (value: string): string[] =>
  value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);

async function main(): Promise<number> {
  const env = loadEnv({
    DATABASE_URL: str(),
    KYC_ENCRYPTION_KEY: str({ optional: true }),
    KYC_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
    PAYER_DATA_ENCRYPTION_KEY: str({ optional: true }),
    PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
    WEBHOOK_SECRET_ENCRYPTION_KEY: str({ optional: true }),
    WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
    AUTH_KEY_ENCRYPTION_KEY: str({ optional: true }),
    AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: str({ default: '' }),
  });
  if (
    !env.KYC_ENCRYPTION_KEY &&
    !env.PAYER_DATA_ENCRYPTION_KEY &&
    !env.WEBHOOK_SECRET_ENCRYPTION_KEY &&
    !env.AUTH_KEY_ENCRYPTION_KEY
  )
    throw new ConfigError(
      'give KYC_ENCRYPTION_KEY, PAYER_DATA_ENCRYPTION_KEY, WEBHOOK_SECRET_ENCRYPTION_KEY and/or AUTH_KEY_ENCRYPTION_KEY: the rings to re-seal',
    );
  if (env.KYC_ENCRYPTION_KEY) {
    const report = await rekeyKyc({
      databaseUrl: env.DATABASE_URL,
      keys: [env.KYC_ENCRYPTION_KEY, ...list(env.KYC_PREVIOUS_ENCRYPTION_KEYS)],
    });
    process.stdout.write(
      `[rekey] kyc: ${report.kycUsers} users and ${report.idempotencyRecords} idempotency records re-sealed under key ${report.keyId}\n`,
    );
  }
  if (env.PAYER_DATA_ENCRYPTION_KEY) {
    const report = await rekeyPayerData({
      databaseUrl: env.DATABASE_URL,
      keys: [env.PAYER_DATA_ENCRYPTION_KEY, ...list(env.PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS)],
    });
    const counts = Object.entries(report.resealed).map(([table, n]) => `${table} ${n}`);
    const missing = report.missing.length > 0 ? ` (not in this database: ${report.missing.join(', ')})` : '';
    process.stdout.write(
      `[rekey] payer data: rows re-sealed under key ${report.keyId}: ${counts.join(', ')}${missing}\n`,
    );
  }
  if (env.WEBHOOK_SECRET_ENCRYPTION_KEY) {
    const report = await rekeyWebhookSecrets({
      databaseUrl: env.DATABASE_URL,
      keys: [env.WEBHOOK_SECRET_ENCRYPTION_KEY, ...list(env.WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS)],
    });
    const n = report.resealed['webhooks.endpoints'];
    process.stdout.write(
      n === undefined
        ? `[rekey] webhook secrets: no webhooks.endpoints table in this database\n`
        : `[rekey] webhook secrets: ${n} endpoints re-sealed under key ${report.keyId}\n`,
    );
  }
  if (env.AUTH_KEY_ENCRYPTION_KEY) {
    const report = await rekeyAuthSigningKeys({
      databaseUrl: env.DATABASE_URL,
      keys: [env.AUTH_KEY_ENCRYPTION_KEY, ...list(env.AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS)],
    });
    const n = report.resealed['auth.signing_keys'];
    process.stdout.write(
      n === undefined
        ? `[rekey] auth: no auth.signing_keys table in this database\n`
        : `[rekey] auth: ${n} signing keys re-sealed under key ${report.keyId}\n`,
    );
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`[rekey] ${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  },
);
