import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

import { createDatabase, startServiceTestApp, startTestTokenIssuer, TestTokenIssuer } from '@onramp/testing';

import { AppModule } from '../app.module';
import { PAYMENTS_SCHEMA } from '../config';

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
  const server = process.env['DATABASE_URL'];
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  const databaseUrl = await createDatabase(
    server,
    `payments_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
  );
  const issuer = await startTestTokenIssuer();
  Object.assign(process.env, {
    ONRAMP_MODE: 'sandbox',
    // a fresh database per test app: migrating at boot stands in for the `migrate` step, in
    // production mode too (where apps otherwise wait for it)
    DB_MIGRATE_AT_BOOT: 'true',
    ...env,
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
  });
  try {
    const app = await startServiceTestApp(AppModule, {
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
  } finally {
    process.env['DATABASE_URL'] = server;
  }
}
