import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

import { loadPaymentIngestConfig, PAYMENTS_SCHEMA, PaymentIngestModule } from '@onramp/payments-feature';
import {
  createTestDatabase,
  startServiceTestApp,
  startTestTokenIssuer,
  TestTokenIssuer,
} from '@onramp/testing';

export interface PaymentIngestTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer;
  dataSource: DataSource;
  close(): Promise<void>;
}

// The real app module on a fresh database. The only change: its consumer group is unique to this
// run, so a parallel run on the same broker cannot take our events (order.* history it replays
// from the beginning only opens references nobody pays).
export async function startPaymentIngestTestApp(
  env: Record<string, string> = {},
): Promise<PaymentIngestTestApp> {
  const { databaseUrl } = await createTestDatabase('payments_test');
  const issuer = await startTestTokenIssuer();
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup) and what this test asks for; the process environment stays as it was.
  const config = loadPaymentIngestConfig({
    ...process.env,
    ONRAMP_MODE: 'sandbox',
    // a fresh database per test app: migrating at boot stands in for the `migrate` step, in
    // production mode too (where apps otherwise wait for it)
    DB_MIGRATE_AT_BOOT: 'true',
    ...env,
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
  });
  const app = await startServiceTestApp(PaymentIngestModule.forRoot(config), {
    schema: PAYMENTS_SCHEMA,
    groupId: `onramp-payment-ingest-test-${randomUUID()}`,
  });
  return {
    app,
    issuer,
    dataSource: app.get(DataSource),
    close: async () => {
      await app.close();
      await issuer.close();
    },
  };
}
