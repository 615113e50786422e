import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';

import { applyHttpConventions, createHttpAdapter } from '@onramp/http';
import { EVENT_TRANSPORT, EventConsumer, EventTransport } from '@onramp/messaging';

import { startTestTokenIssuer, TestTokenIssuer } from '../auth/test-token-issuer';

export interface ServiceTestAppOptions {
  schema: string; // the service's schema (its inbox lives there)
  groupId: string; // a consumer group of the suite's own, so suites never steal each other's events
}

// A service's real AppModule, as production builds it (same adapter, same problem+json and
// validation), except for the consumer group. Initialised and ready, not listening: use inject().
export async function startServiceTestApp(
  module: unknown,
  opts: ServiceTestAppOptions,
): Promise<NestFastifyApplication> {
  const moduleRef = await Test.createTestingModule({ imports: [module as never] })
    .overrideProvider(EventConsumer)
    .useFactory({
      inject: [DataSource, EVENT_TRANSPORT],
      factory: (ds: DataSource, transport: EventTransport) =>
        new EventConsumer(ds, transport, { schema: opts.schema, groupId: opts.groupId }),
    })
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(), {
    logger: ['warn', 'error', 'fatal'],
    bodyParser: false,
  });
  applyHttpConventions(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

export interface MerchantServiceTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer; // signs the merchant tokens the app accepts
  dataSource: DataSource;
  close(): Promise<void>;
}

// startServiceTestApp for a service behind merchant tokens: a stand-in auth service starts first,
// the module is built with its URL (AUTH_URL), and it closes with the app.
export async function startMerchantServiceTestApp(
  moduleFor: (authUrl: string) => unknown,
  opts: ServiceTestAppOptions,
): Promise<MerchantServiceTestApp> {
  const issuer = await startTestTokenIssuer();
  const app = await startServiceTestApp(moduleFor(issuer.url), opts);
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
