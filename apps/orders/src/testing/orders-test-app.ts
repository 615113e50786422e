import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { Topics } from '@onramp/contracts';

import { createHttpApp } from '@onramp/http';
import { loadOrdersConfig, OrdersModule } from '@onramp/orders-feature';
import {
  createDatabase,
  dropDatabase,
  startGroupAtEnd,
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
  const server = process.env['DATABASE_URL'];
  if (!server) throw new Error('DATABASE_URL is not set: run with jest.integration.config.js');
  const id = randomUUID().replace(/-/g, '').slice(0, 16);
  const databaseUrl = await createDatabase(server, `orders_test_${id}`);
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
  const app = await createHttpApp(OrdersModule.forRoot(config), {
    name: 'orders',
    port: 0,
    logging: { ...config.runtime.logging, level: 'warn' },
    tracing: config.runtime.tracing,
  });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
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
