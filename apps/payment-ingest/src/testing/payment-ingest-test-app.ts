import { randomUUID } from 'node:crypto';

import { loadPaymentIngestConfig, PAYMENTS_SCHEMA, PaymentIngestModule } from '@onramp/payments-feature';
import { createTestDatabase, MerchantServiceTestApp, startMerchantServiceTestApp } from '@onramp/testing';

export type PaymentIngestTestApp = MerchantServiceTestApp;

// The real app module on a fresh database. The only change: its consumer group is unique to this
// run, so a parallel run on the same broker cannot take our events (order.* history it replays
// from the beginning only opens references nobody pays).
export async function startPaymentIngestTestApp(
  env: Record<string, string> = {},
): Promise<PaymentIngestTestApp> {
  const { databaseUrl } = await createTestDatabase('payments_test');
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup) and what this test asks for; the process environment stays as it was.
  const moduleFor = (authUrl: string) =>
    PaymentIngestModule.forRoot(
      loadPaymentIngestConfig({
        ...process.env,
        ONRAMP_MODE: 'sandbox',
        // a fresh database per test app: migrating at boot stands in for the `migrate` step, in
        // production mode too (where apps otherwise wait for it)
        DB_MIGRATE_AT_BOOT: 'true',
        ...env,
        DATABASE_URL: databaseUrl,
        AUTH_URL: authUrl,
      }),
    );
  return startMerchantServiceTestApp(moduleFor, {
    schema: PAYMENTS_SCHEMA,
    groupId: `onramp-payment-ingest-test-${randomUUID()}`,
  });
}
