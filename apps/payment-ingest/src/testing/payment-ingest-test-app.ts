import { randomUUID } from 'node:crypto';

import { LogLevel } from '@nestjs/common';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';

import { DEFAULT_BODY_LIMIT, ProblemDetailsFilter, ProblemValidationPipe } from '@onramp/http';
import { EVENT_TRANSPORT, EventConsumer, EventTransport } from '@onramp/messaging';
import { createDatabase, startTestTokenIssuer, TestTokenIssuer } from '@onramp/testing';

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
    ...env,
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
  });
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(EventConsumer)
      .useFactory({
        inject: [DataSource, EVENT_TRANSPORT],
        factory: (ds: DataSource, transport: EventTransport) =>
          new EventConsumer(ds, transport, {
            schema: PAYMENTS_SCHEMA,
            groupId: `onramp-payment-ingest-test-${randomUUID()}`,
          }),
      })
      .compile();
    const app = moduleRef.createNestApplication<NestFastifyApplication>(
      new FastifyAdapter({ bodyLimit: DEFAULT_BODY_LIMIT }),
      {
        logger: ['warn', 'error', 'fatal'] satisfies LogLevel[],
      },
    );
    applyHttpConventions(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
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

// What createHttpApp (@onramp/http) sets up; it takes a module class, not a compiled testing module.
// (Nest's own not-found and error handlers, installed at init, go through the global problem+json filter.)
function applyHttpConventions(app: NestFastifyApplication): void {
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.useGlobalPipes(new ProblemValidationPipe());
}
