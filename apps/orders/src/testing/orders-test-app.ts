import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { Topics } from '@onramp/contracts';

import { loadOrdersConfig, OrdersModule } from '@onramp/orders-feature';
import {
  createTestDatabase,
  dropDatabase,
  startGroupAtEnd,
  startHttpTestApp,
  startTestTokenIssuer,
  TestTokenIssuer,
} from '@onramp/testing';

import { KycServiceStub } from './kyc-service-stub';

export interface OrdersTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer;
  kyc: KycServiceStub;
  databaseUrl: string;
  consumerGroup: string;
  close(): Promise<void>;
}

// The real orders app on a fresh database and its own consumer group (other suites share the
// broker), with stand-ins for the auth service (JWKS) and the KYC service's internal lookup.
export async function startOrdersTestApp(env: Record<string, string> = {}): Promise<OrdersTestApp> {
  const { server, databaseUrl, id } = await createTestDatabase('orders_test');
  const consumerName = `orders-test-${id}`;
  const [issuer, kyc] = await Promise.all([
    startTestTokenIssuer(),
    KycServiceStub.start(),
    startGroupAtEnd(`onramp-${consumerName}`, CONSUMED),
  ]);
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup), what this test needs and its own consumer group; the process environment stays as it was.
  const config = {
    ...loadOrdersConfig({
      ...process.env,
      DATABASE_URL: databaseUrl,
      AUTH_URL: issuer.url,
      KYC_SERVICE_URL: kyc.url,
      ...env,
    }),
    consumerName,
  };
  const app = await startHttpTestApp(OrdersModule.forRoot(config), 'orders', config.runtime);
  return {
    app,
    issuer,
    kyc,
    databaseUrl,
    consumerGroup: `onramp-${consumerName}`,
    close: async () => {
      await app.close();
      await dropDatabase(server, databaseUrl);
      await Promise.all([issuer.close(), kyc.close()]);
    },
  };
}

const CONSUMED = [
  Topics.KycUserRegistered,
  Topics.KycUserStatusChanged,
  Topics.PaymentConfirmed,
  Topics.PaymentFailed,
  Topics.TransferSucceeded,
  Topics.TransferFailed,
];
