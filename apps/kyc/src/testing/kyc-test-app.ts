import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { KycModule, loadKycConfig } from '@onramp/kyc-feature';
import {
  createTestDatabase,
  dropDatabase,
  startHttpTestApp,
  startTestTokenIssuer,
  TestTokenIssuer,
} from '@onramp/testing';

export interface KycTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer;
  databaseUrl: string;
  close(): Promise<void>;
}

// The real kyc app on a fresh database, with a stand-in auth service for its tokens.
export async function startKycTestApp(): Promise<KycTestApp> {
  const { server, databaseUrl } = await createTestDatabase('kyc_test');
  const issuer = await startTestTokenIssuer();
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup) and what this test needs; the process environment stays as it was.
  const config = loadKycConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
    ONRAMP_MODE: 'sandbox',
  });
  const app = await startHttpTestApp(KycModule.forRoot(config), 'kyc', config.runtime);
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
