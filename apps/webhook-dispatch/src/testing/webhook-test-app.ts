import { randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { MessagingLifecycle } from '@onramp/messaging';
import {
  createTestDatabase,
  startGroupAtEnd,
  startServiceTestApp,
  startTestTokenIssuer,
  TestTokenIssuer,
  waitFor,
} from '@onramp/testing';
import { loadWebhookConfig, WEBHOOKS_SCHEMA, WebhookDispatchModule } from '@onramp/webhooks-feature';

export interface WebhookTestApp {
  app: NestFastifyApplication;
  issuer: TestTokenIssuer;
  dataSource: DataSource;
  close(): Promise<void>;
}

// The real app module on a fresh database, with a stand-in auth service. The only change: a consumer
// group unique to this run, so a parallel run on the same broker cannot take our events; it starts at
// the current end of the topics, so it does not replay what other runs left there.
export async function startWebhookTestApp(env: Record<string, string> = {}): Promise<WebhookTestApp> {
  const { databaseUrl } = await createTestDatabase('webhooks_test');
  const groupId = `onramp-webhook-dispatch-test-${randomUUID()}`;
  const [issuer] = await Promise.all([
    startTestTokenIssuer(),
    startGroupAtEnd(groupId, [Topics.OrderCompleted, Topics.OrderFailed]),
  ]);
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup) and what this test asks for; the process environment stays as it was.
  const config = loadWebhookConfig({
    ...process.env,
    ONRAMP_MODE: 'sandbox',
    ...env,
    DATABASE_URL: databaseUrl,
    AUTH_URL: issuer.url,
  });
  const app = await startServiceTestApp(WebhookDispatchModule.forRoot(config), {
    schema: WEBHOOKS_SCHEMA,
    groupId: groupId,
  });
  const messaging = app.get(MessagingLifecycle);
  await waitFor(() => messaging.isReady(), {
    timeoutMs: 60_000,
    description: 'the consumer group to join',
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
