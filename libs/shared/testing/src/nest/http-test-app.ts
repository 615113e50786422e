import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { createHttpApp, HttpServiceOptions } from '@onramp/http';
import { createDatabase } from '@onramp/platform-infra';

import { testDatabaseServer } from '../test-env';

export interface TestDatabase {
  server: string; // the suite's Postgres (the global setup's DATABASE_URL)
  databaseUrl: string; // the fresh database on it
  id: string; // the random part of its name, for other names of the same test app
}

// A fresh database named `<prefix>_<16 hex>` for one test app, on the suite's Postgres.
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const server = testDatabaseServer();
  const id = randomUUID().replace(/-/g, '').slice(0, 16);
  return { server, databaseUrl: await createDatabase(server, `${prefix}_${id}`), id };
}

// An app as its main.ts builds it (createHttpApp: adapter, conventions, logging, tracing), logging
// warnings and up only, initialised and ready but not listening: use inject().
export async function startHttpTestApp(
  module: unknown,
  name: string,
  runtime: Pick<HttpServiceOptions, 'logging' | 'tracing'>,
): Promise<NestFastifyApplication> {
  const app = await createHttpApp(module, {
    name,
    port: 0,
    logging: { ...runtime.logging, level: 'warn' },
    tracing: runtime.tracing,
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}
