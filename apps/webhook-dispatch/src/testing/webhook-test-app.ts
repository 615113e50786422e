import { randomUUID } from 'node:crypto';

import { Topics } from '@onramp/contracts';
import { MessagingLifecycle } from '@onramp/messaging';
import {
  createTestDatabase,
  MerchantServiceTestApp,
  startGroupAtEnd,
  startMerchantServiceTestApp,
  waitFor,
} from '@onramp/testing';
import { loadWebhookConfig, WEBHOOKS_SCHEMA, WebhookDispatchModule } from '@onramp/webhooks-feature';

export type WebhookTestApp = MerchantServiceTestApp;

// Where a replica of the app joins another: the same database and consumer group.
export interface WebhookReplicaOf {
  databaseUrl: string;
  groupId: string;
}

// A fresh database and a consumer group unique to this run (so a parallel run on the same broker
// cannot take our events), the group starting at the current end of the topics, so it does not
// replay what other runs left there.
export async function newWebhookDeployment(): Promise<WebhookReplicaOf> {
  const { databaseUrl } = await createTestDatabase('webhooks_test');
  const groupId = `onramp-webhook-dispatch-test-${randomUUID()}`;
  await startGroupAtEnd(groupId, [Topics.OrderCompleted, Topics.OrderFailed]);
  return { databaseUrl, groupId };
}

// The real app module with a stand-in auth service, on a deployment of its own unless it is given
// one to join as a further replica.
export async function startWebhookTestApp(
  env: Record<string, string> = {},
  replicaOf?: WebhookReplicaOf,
): Promise<WebhookTestApp> {
  const { databaseUrl, groupId } = replicaOf ?? (await newWebhookDeployment());
  // A config of its own, built from the suite's environment (Postgres and Kafka from the global
  // setup) and what this test asks for; the process environment stays as it was.
  const moduleFor = (authUrl: string) =>
    WebhookDispatchModule.forRoot(
      loadWebhookConfig({
        ...process.env,
        ONRAMP_MODE: 'sandbox',
        ...env,
        DATABASE_URL: databaseUrl,
        AUTH_URL: authUrl,
      }),
    );
  const t = await startMerchantServiceTestApp(moduleFor, { schema: WEBHOOKS_SCHEMA, groupId });
  const messaging = t.app.get(MessagingLifecycle);
  await waitFor(() => messaging.isReady(), {
    timeoutMs: 60_000,
    description: 'the consumer group to join',
  });
  return t;
}
