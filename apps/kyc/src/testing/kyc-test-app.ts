import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { createHttpApp } from '@onramp/http';
import { loadLoggingConfig } from '@onramp/logging';
import { loadTracingConfig } from '@onramp/observability';
import { createDatabase, dropDatabase, startTestTokenIssuer, TestTokenIssuer } from '@onramp/testing';

import { AppModule } from '../app.module';

export interface KycTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer;
  databaseUrl: string;
  close(): Promise<void>;
}

// The real kyc app on a fresh database, with a stand-in auth service for its tokens.
export async function startKycTestApp(): Promise<KycTestApp> {
  const server = process.env['DATABASE_URL'];
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  const databaseUrl = await createDatabase(server, `kyc_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`);
  const issuer = await startTestTokenIssuer();
  Object.assign(process.env, { DATABASE_URL: databaseUrl, AUTH_URL: issuer.url, ONRAMP_MODE: 'sandbox' });
  const app = await createHttpApp(AppModule, {
    name: 'kyc',
    port: 0,
    logging: { ...loadLoggingConfig(process.env), level: 'warn' },
    tracing: loadTracingConfig(process.env),
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  process.env['DATABASE_URL'] = server;
  return {
    app,
    issuer,
    databaseUrl,
    close: async () => {
      await app.close();
      await dropDatabase(server, databaseUrl);
      await issuer.close();
    },
  };
}

export function adultApplicant(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Jane',
    lastName: 'Doe',
    dateOfBirth: '1990-04-01',
    nationality: 'DE',
    email: 'jane.doe@example.com',
    phone: '+4915112345678',
    address: { line1: 'Hauptstrasse 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
    document: { type: 'PASSPORT', number: 'C01X00T47', issuingCountry: 'DE', expiryDate: '2035-01-31' },
    ...overrides,
  };
}
