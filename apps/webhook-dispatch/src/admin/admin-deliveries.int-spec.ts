import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { operatorHeaders, waitFor } from '@onramp/testing';

import type { AdminDeliveryView } from '@onramp/webhooks-feature';
import { orderCompleted, orderFailed, publish } from '../testing/order-events';
import { WebhookReceiver } from '../testing/webhook-receiver';
import { useWebhookSuite } from '../testing/webhook-suite';
import { WebhookTestApp } from '../testing/webhook-test-app';

describe('admin webhook deliveries API (integration)', () => {
  const suite = useWebhookSuite();
  let t: WebhookTestApp;
  let receiver: WebhookReceiver;
  let producer: Producer;

  const admin = (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string> = operatorHeaders(method, url),
  ) => t.app.inject({ method, url, headers });
  const list = async (query: string): Promise<AdminDeliveryView[]> => {
    const res = await admin('GET', `/admin/webhook-deliveries${query}`);
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const registerEndpoint = async (merchantId: string, path: string) => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/merchant/webhook',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` },
      payload: { url: receiver.url(path) },
    });
    expect(res.statusCode).toBe(200);
  };

  beforeAll(() => {
    ({ t, receiver, producer } = suite);
  });

  it("refuses requests without the gateway's credential, and merchant tokens, with 401 problem+json", async () => {
    const merchantToken = t.issuer.tokenFor(randomUUID());
    for (const res of [
      await admin('GET', '/admin/webhook-deliveries', {}),
      await admin('GET', '/admin/webhook-deliveries', { authorization: 'Bearer wrong' }),
      await admin('GET', '/admin/webhook-deliveries', { authorization: `Bearer ${merchantToken}` }),
      await admin('POST', `/admin/webhook-deliveries/${randomUUID()}/redeliver`, { 'x-admin-key': 'wrong' }),
    ]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('lists deliveries of every merchant newest first, filtered by merchant and status', async () => {
    const withEndpoint = randomUUID();
    const without = randomUUID();
    await registerEndpoint(withEndpoint, `/list/${randomUUID()}`);
    const first = orderCompleted(withEndpoint);
    const second = orderFailed(without);
    await publish(producer, first);
    await publish(producer, second);
    const seen = await waitFor(
      async () => {
        const ours = (await list('?limit=50')).filter((d) => [first.id, second.id].includes(d.eventId));
        return ours.length === 2 && ours.some((d) => d.status === 'DELIVERED') ? ours : undefined;
      },
      { timeoutMs: 30_000, description: 'both deliveries, one delivered' },
    );
    // newest first: creation order follows consumption, which differs per partition, so compare times
    expect(seen[0].createdAt >= seen[1].createdAt).toBe(true);
    expect(seen.find((d) => d.eventId === second.id)).toMatchObject({
      merchantId: without,
      status: 'NO_ENDPOINT',
      eventType: 'order.failed',
    });

    const delivered = await list(`?merchantId=${withEndpoint.toUpperCase()}&status=DELIVERED`);
    expect(delivered).toEqual([
      expect.objectContaining({
        eventId: first.id,
        merchantId: withEndpoint,
        attempts: 1,
        lastStatusCode: 200,
      }),
    ]);
    expect(await list(`?merchantId=${without}&status=DELIVERED`)).toEqual([]);

    const page = await admin('GET', '/admin/webhook-deliveries?status=NO_ENDPOINT&limit=1');
    expect(Number(page.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect(page.headers['link']).toContain('</admin/webhook-deliveries?status=NO_ENDPOINT&limit=1&offset=0>');

    for (const bad of ['?status=SENT', '?merchantId=42', '?offset=-1']) {
      const res = await admin('GET', `/admin/webhook-deliveries${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('redelivers any merchant delivery with the merchant redelivery semantics', async () => {
    const merchantId = randomUUID();
    const path = `/re/${randomUUID()}`;
    await registerEndpoint(merchantId, path);
    const event = orderCompleted(merchantId);
    await publish(producer, event);
    const delivered = await waitFor(
      async () => (await list(`?merchantId=${merchantId}&status=DELIVERED`))[0],
      { timeoutMs: 30_000, description: 'the first delivery' },
    );

    const res = await admin('POST', `/admin/webhook-deliveries/${delivered.id}/redeliver`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id: delivered.id, eventId: event.id, merchantId, status: 'PENDING' });
    const again = await waitFor(() => receiver.requests(path)[1], {
      timeoutMs: 20_000,
      description: 'the redelivered request',
    });
    expect(again.headers['x-webhook-id']).toBe(event.id);
    expect(again.body).toBe(receiver.requests(path)[0].body);

    const unknown = await admin('POST', `/admin/webhook-deliveries/${randomUUID()}/redeliver`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    expect((await admin('POST', '/admin/webhook-deliveries/nope/redeliver')).statusCode).toBe(400);
  });

  it('answers 422 when the merchant has no endpoint to redeliver to', async () => {
    const merchantId = randomUUID();
    await publish(producer, orderFailed(merchantId));
    const parked = await waitFor(async () => (await list(`?merchantId=${merchantId}`))[0], {
      timeoutMs: 30_000,
      description: 'the NO_ENDPOINT delivery',
    });
    expect(parked.status).toBe('NO_ENDPOINT');
    const res = await admin('POST', `/admin/webhook-deliveries/${parked.id}/redeliver`);
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(res.json().detail).toContain('no webhook URL is registered');
  });
});
