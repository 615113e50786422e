import { Producer } from 'kafkajs';

import { testProducer } from './order-events';
import { WebhookReceiver } from './webhook-receiver';
import { startWebhookTestApp, WebhookTestApp } from './webhook-test-app';

export interface WebhookSuite {
  t: WebhookTestApp;
  receiver: WebhookReceiver;
  producer: Producer;
}

/**
 * What every webhook-dispatch integration spec starts: a receiver for the merchants' endpoints, the app
 * polling and retrying fast, and a producer for the order events. Registers the spec's beforeAll/afterAll;
 * the returned holder is filled once they ran. `env` adds to (or overrides) the fast timings.
 */
export function useWebhookSuite(env: Record<string, string> = {}): WebhookSuite {
  const suite = {} as WebhookSuite;
  beforeAll(async () => {
    suite.receiver = new WebhookReceiver();
    await suite.receiver.start();
    suite.t = await startWebhookTestApp({
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '100',
      WEBHOOK_RETRY_MAX_MS: '400',
      ...env,
    });
    suite.producer = testProducer();
    await suite.producer.connect();
  });
  afterAll(async () => {
    await suite.producer?.disconnect();
    await suite.t?.close();
    await suite.receiver?.close();
  });
  return suite;
}
