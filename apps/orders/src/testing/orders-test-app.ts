import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { Kafka, logLevel } from 'kafkajs';

import { Topics } from '@onramp/contracts';

import { createHttpApp } from '@onramp/http';
import { createDatabase, startTestTokenIssuer, TestTokenIssuer } from '@onramp/testing';

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
    startGroupAtEnd(`onramp-${consumerName}`),
  ]);
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
    KYC_SERVICE_URL: kyc.url,
    ORDERS_CONSUMER_NAME: consumerName,
    ...env,
  });
  // Imported only now: the module reads its consumer group name when it is loaded.
  const { AppModule } = await import('../app.module');
  const app = await createHttpApp(AppModule, { name: 'orders', port: 0, logLevel: 'warn' });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  process.env['DATABASE_URL'] = server;
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
  Topics.PaymentConfirmed,
  Topics.PaymentFailed,
  Topics.TransferSucceeded,
  Topics.TransferFailed,
];

// A new consumer group starts from the earliest offset; a test group would replay every event other
// runs left on the shared broker (and dead-letter them: their orders are not in this database).
// Committing the current end offsets first makes the group see only what happens from now on.
// (admin.setOffsets would do it too, but it joins the group once per topic, seconds each.)
async function startGroupAtEnd(groupId: string): Promise<void> {
  const kafka = new Kafka({
    clientId: 'orders-test-setup',
    brokers: (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(','),
    logLevel: logLevel.NOTHING,
  });
  const admin = kafka.admin();
  await admin.connect();
  let ends: { topic: string; partition: number; offset: string }[];
  try {
    const existing = new Set(await admin.listTopics());
    const topics = CONSUMED.filter((topic) => existing.has(topic));
    const offsets = await Promise.all(
      topics.map(async (topic) => ({ topic, partitions: await admin.fetchTopicOffsets(topic) })),
    );
    ends = offsets.flatMap(({ topic, partitions }) =>
      partitions.map((p) => ({ topic, partition: p.partition, offset: p.high })),
    );
  } finally {
    await admin.disconnect();
  }
  if (ends.length === 0) return; // fresh broker: nothing to skip
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [...new Set(ends.map((e) => e.topic))] });
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
    consumer.pause([...new Set(ends.map((e) => e.topic))].map((topic) => ({ topic })));
    await joined;
    await consumer.commitOffsets(ends);
  } finally {
    await consumer.disconnect();
  }
}

// Suites leave nothing behind on a shared server.
async function dropDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(
      `DROP DATABASE IF EXISTS ${client.escapeIdentifier(new URL(databaseUrl).pathname.slice(1))} WITH (FORCE)`,
    );
  } finally {
    await client.end();
  }
}
