import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { waitFor } from '@onramp/testing';

import { orderCompleted, publish, testProducer } from '../testing/order-events';
import { WebhookReceiver } from '../testing/webhook-receiver';
import { newWebhookDeployment, startWebhookTestApp, WebhookTestApp } from '../testing/webhook-test-app';

// Two replicas of webhook-dispatch on one database and consumer group, as the Helm chart deploys
// them (apps.webhook-dispatch.replicas: 2). Their claims run side by side on the same merchants'
// backlogs: each delivery must be claimed by one of them only, sent once and recorded once (a second
// send is allowed only after a lease runs out, 40 s, which this test never reaches).
describe('two webhook-dispatch replicas on one database (integration)', () => {
  const env = {
    WEBHOOK_POLL_MS: '50', // the replica that did not register the endpoints finds the backlog by its poll
    WEBHOOK_MAX_IN_FLIGHT: '4', // claims of at most 32, 16 a merchant: the backlog takes many claims
    WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: '2',
  };
  const MERCHANTS = 3;
  const EACH = 60;
  let receiver: WebhookReceiver;
  let producer: Producer;
  let a: WebhookTestApp;
  let b: WebhookTestApp;

  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    const deployment = await newWebhookDeployment();
    a = await startWebhookTestApp(env, deployment);
    b = await startWebhookTestApp(env, deployment);
    producer = testProducer();
    await producer.connect();
  });
  afterAll(async () => {
    await producer?.disconnect();
    await b?.close();
    await a?.close();
    await receiver?.close();
  });

  it('sends and records each delivery of a shared backlog once', async () => {
    const merchants = Array.from({ length: MERCHANTS }, () => ({
      id: randomUUID(),
      path: `/hooks/${randomUUID()}`,
    }));
    const eventIds: string[] = [];
    // Kept while the merchants have no endpoint, so that the whole backlog is due at once.
    for (const m of merchants)
      for (let i = 0; i < EACH; i++) {
        const event = orderCompleted(m.id);
        eventIds.push(event.id);
        await publish(producer, event);
      }
    const kept = async (): Promise<number> =>
      Number(
        (
          await a.dataSource.query(
            `SELECT count(*) AS n FROM webhooks.deliveries WHERE status = 'NO_ENDPOINT' AND merchant_id = ANY($1)`,
            [merchants.map((m) => m.id)],
          )
        )[0].n,
      );
    await waitFor(async () => (await kept()) === MERCHANTS * EACH || undefined, {
      timeoutMs: 30_000,
      description: `${MERCHANTS * EACH} deliveries kept`,
    });

    // Through b: passport keeps one strategy per name in a process, so the replica started last
    // checks tokens for both, against its own stand-in auth service.
    for (const m of merchants) {
      const res = await b.app.inject({
        method: 'PUT',
        url: '/merchant/webhook',
        headers: { authorization: `Bearer ${b.issuer.tokenFor(m.id)}` },
        payload: { url: receiver.url(m.path) },
      });
      expect(res.statusCode).toBe(200);
    }

    const received = (): string[] =>
      merchants.flatMap((m) => receiver.requests(m.path).map((r) => String(r.headers['x-webhook-id'])));
    await waitFor(() => received().length >= eventIds.length || undefined, {
      timeoutMs: 30_000,
      description: `${eventIds.length} requests`,
    });
    const recorded = async () =>
      b.dataSource.query<{ status: string; attempts: number; logged: number }[]>(
        `SELECT d.status, d.attempts, (SELECT count(*) FROM webhooks.delivery_attempts a WHERE a.delivery_id = d.id)::int AS logged
         FROM webhooks.deliveries d WHERE d.merchant_id = ANY($1)`,
        [merchants.map((m) => m.id)],
      );
    await waitFor(async () => (await recorded()).every((r) => r.status === 'DELIVERED') || undefined, {
      timeoutMs: 30_000,
      description: 'every delivery recorded as delivered',
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // a late second send would show by now

    expect(received().sort()).toEqual([...eventIds].sort());
    const rows = await recorded();
    expect(rows).toHaveLength(eventIds.length);
    expect(rows.filter((r) => r.attempts !== 1 || r.logged !== 1)).toEqual([]);
  });
});
