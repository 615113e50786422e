import { randomUUID } from 'node:crypto';

import type { DeliveryView } from '@onramp/webhooks-feature';
import { waitFor } from '@onramp/testing';

import { orderCompleted, publish } from '../testing/order-events';
import { useWebhookSuite } from '../testing/webhook-suite';

// The dispatcher claims when something may be due that it does not hold, not after every send, and
// records finished sends on a short timer. With the safety-net poll a minute long, a backlog larger
// than one claim's share is delivered and recorded only if those wake-ups work: a claim when a lane
// runs low while its merchant had more due, and the recording timer.
describe('webhook dispatch rounds without the safety-net poll (integration)', () => {
  const suite = useWebhookSuite({
    WEBHOOK_POLL_MS: '60000',
    WEBHOOK_MAX_IN_FLIGHT: '4',
    WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: '2', // a claim takes at most 16 for the merchant
  });
  const BACKLOG = 40;

  it('delivers and records a backlog of several claims for one merchant', async () => {
    const { t, receiver, producer } = suite;
    const merchantId = randomUUID();
    const path = `/hooks/${randomUUID()}`;
    const headers = { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` };
    const deliveries = async (): Promise<DeliveryView[]> =>
      (await t.app.inject({ method: 'GET', url: '/merchant/webhook/deliveries', headers })).json();

    // Kept while the merchant has no endpoint: no send, no hand-off, nothing due yet.
    const events = Array.from({ length: BACKLOG }, () => orderCompleted(merchantId));
    for (const e of events) await publish(producer, e);
    await waitFor(
      async () =>
        (await deliveries()).filter((d) => d.status === 'NO_ENDPOINT').length === BACKLOG || undefined,
      { timeoutMs: 20_000, description: `${BACKLOG} deliveries kept for the merchant` },
    );

    // One registration makes all of them due and wakes one claim.
    const res = await t.app.inject({
      method: 'PUT',
      url: '/merchant/webhook',
      headers,
      payload: { url: receiver.url(path) },
    });
    expect(res.statusCode).toBe(200);

    await waitFor(() => receiver.requests(path).length >= BACKLOG || undefined, {
      timeoutMs: 20_000,
      description: `${BACKLOG} requests to ${path}`,
    });
    const sent = new Set(receiver.requests(path).map((r) => String(r.headers['x-webhook-id'])));
    expect([...sent].sort()).toEqual(events.map((e) => e.id).sort());
    await waitFor(
      async () =>
        (await deliveries()).filter((d) => d.status === 'DELIVERED').length === BACKLOG || undefined,
      { timeoutMs: 20_000, description: `${BACKLOG} deliveries recorded as delivered` },
    );
  });
});
