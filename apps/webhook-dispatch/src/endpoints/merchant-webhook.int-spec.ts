import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { waitFor } from '@onramp/testing';
import { verifySignature } from '@onramp/webhooks-domain';

import type { DeliveryView } from '@onramp/webhooks-feature';
import { orderCompleted, publish } from '../testing/order-events';
import { WebhookReceiver } from '../testing/webhook-receiver';
import { useWebhookSuite } from '../testing/webhook-suite';
import { WebhookTestApp } from '../testing/webhook-test-app';

describe('merchant webhook API (integration)', () => {
  const suite = useWebhookSuite();
  let t: WebhookTestApp;
  let receiver: WebhookReceiver;
  let producer: Producer;

  const auth = (merchantId: string) => ({ authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` });
  const call = (merchantId: string, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: auth(merchantId), ...(payload ? { payload } : {}) });
  const deliveries = async (merchantId: string, query = ''): Promise<DeliveryView[]> =>
    (await call(merchantId, 'GET', `/merchant/webhook/deliveries${query}`)).json();
  const signedWith = (secret: string, path: string, eventId: string) =>
    waitFor(
      () => {
        const req = receiver.requests(path).find((r) => r.headers['x-webhook-id'] === eventId);
        return req && verifySignature(secret, req.body, String(req.headers['x-webhook-signature']))
          ? req
          : undefined;
      },
      { timeoutMs: 20_000, description: `a request for ${eventId} signed with the expected secret` },
    );

  beforeAll(() => {
    ({ t, receiver, producer } = suite);
  });

  it('refuses requests without a valid merchant token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/merchant/webhook' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const forged = await t.app.inject({
      method: 'PUT',
      url: '/merchant/webhook',
      headers: { authorization: `Bearer ${t.issuer.forgedTokenFor(randomUUID())}` },
      payload: { url: receiver.url('/x') },
    });
    expect(forged.statusCode).toBe(401);
  });

  it('creates an endpoint with a secret shown once; GET never shows it; a URL change keeps it', async () => {
    const merchantId = randomUUID();
    const none = await call(merchantId, 'GET', '/merchant/webhook');
    expect(none.statusCode).toBe(404);
    expect(none.headers['content-type']).toContain('application/problem+json');

    const created = await call(merchantId, 'PUT', '/merchant/webhook', { url: receiver.url('/a') });
    expect(created.statusCode).toBe(200);
    const { url, secret } = created.json();
    expect(url).toBe(receiver.url('/a'));
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const got = await call(merchantId, 'GET', '/merchant/webhook');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({
      url,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      disabled: false,
    });
    expect(got.payload).not.toContain(secret.slice(6));

    const path = `/b/${randomUUID()}`;
    const changed = await call(merchantId, 'PUT', '/merchant/webhook', { url: receiver.url(path) });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toEqual({ url: receiver.url(path) });
    expect((await call(merchantId, 'GET', '/merchant/webhook')).json().url).toBe(receiver.url(path));

    const event = orderCompleted(merchantId);
    await publish(producer, event);
    await signedWith(secret, path, event.id); // the original secret still signs
  });

  it('rotates the secret: the new one signs the next delivery', async () => {
    const merchantId = randomUUID();
    expect((await call(merchantId, 'POST', '/merchant/webhook/rotate-secret')).statusCode).toBe(404);
    const path = `/rot/${randomUUID()}`;
    const { secret: old } = (
      await call(merchantId, 'PUT', '/merchant/webhook', { url: receiver.url(path) })
    ).json();

    const rotated = await call(merchantId, 'POST', '/merchant/webhook/rotate-secret');
    expect(rotated.statusCode).toBe(200);
    const { url, secret } = rotated.json();
    expect(url).toBe(receiver.url(path));
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);

    const event = orderCompleted(merchantId);
    await publish(producer, event);
    const req = await signedWith(secret, path, event.id);
    expect(verifySignature(old, req.body, String(req.headers['x-webhook-signature']))).toBe(false);
  });

  it('answers 400 problem+json with the field for a bad URL', async () => {
    const merchantId = randomUUID();
    for (const url of [
      'http://hooks.example.com/x',
      'https://169.254.169.254/latest',
      'not a url',
      'https://u:p@hooks.example.com/',
    ]) {
      const res = await call(merchantId, 'PUT', '/merchant/webhook', { url });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json().errors).toEqual([{ field: 'url', message: expect.any(String) }]);
    }
    const missing = await call(merchantId, 'PUT', '/merchant/webhook', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toContainEqual({ field: 'url', message: expect.any(String) });
    expect((await call(merchantId, 'GET', '/merchant/webhook')).statusCode).toBe(404);
  });

  it('lists deliveries newest first with pagination headers, scoped to the merchant', async () => {
    const merchantId = randomUUID();
    const path = `/list/${randomUUID()}`;
    await call(merchantId, 'PUT', '/merchant/webhook', { url: receiver.url(path) });
    const events = [orderCompleted(merchantId), orderCompleted(merchantId), orderCompleted(merchantId)];
    for (const e of events) await publish(producer, e);
    await waitFor(
      async () => (await deliveries(merchantId)).filter((d) => d.status === 'DELIVERED').length === 3,
      {
        timeoutMs: 20_000,
        description: 'three deliveries',
      },
    );

    const page = await call(merchantId, 'GET', '/merchant/webhook/deliveries?limit=2&offset=0');
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers['link']).toContain('rel="next"');
    const items: DeliveryView[] = page.json();
    expect(items).toHaveLength(2);
    expect(items[0]).toEqual({
      id: expect.any(String),
      eventId: expect.any(String),
      eventType: 'order.completed',
      orderUuid: expect.any(String),
      status: 'DELIVERED',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      createdAt: expect.any(String),
      deliveredAt: expect.any(String),
      nextAttemptAt: null,
    });
    const all = await deliveries(merchantId);
    expect(all.map((d) => d.createdAt)).toEqual([...all.map((d) => d.createdAt)].sort().reverse());
    expect(await deliveries(randomUUID())).toEqual([]);
    expect((await call(merchantId, 'GET', '/merchant/webhook/deliveries?limit=51')).statusCode).toBe(400);
  });

  it('redelivers a delivery on request with the same event id and body', async () => {
    const merchantId = randomUUID();
    const path = `/re/${randomUUID()}`;
    const { secret } = (
      await call(merchantId, 'PUT', '/merchant/webhook', { url: receiver.url(path) })
    ).json();
    const event = orderCompleted(merchantId);
    await publish(producer, event);
    const first = await signedWith(secret, path, event.id);
    const delivered = await waitFor(
      async () => (await deliveries(merchantId)).find((d) => d.status === 'DELIVERED'),
      {
        timeoutMs: 20_000,
      },
    );

    const res = await call(merchantId, 'POST', `/merchant/webhook/deliveries/${delivered.id}/redeliver`);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ id: delivered.id, eventId: event.id, status: 'PENDING' });
    const again = await waitFor(() => receiver.requests(path).length === 2 && receiver.requests(path)[1], {
      timeoutMs: 20_000,
    });
    expect(again.headers['x-webhook-id']).toBe(event.id);
    expect(again.body).toBe(first.body);
    await waitFor(
      async () => (await deliveries(merchantId)).find((d) => d.status === 'DELIVERED' && d.attempts === 2),
      {
        timeoutMs: 20_000,
      },
    );

    const other = await call(randomUUID(), 'POST', `/merchant/webhook/deliveries/${delivered.id}/redeliver`);
    expect(other.statusCode).toBe(404);
    const malformed = await call(merchantId, 'POST', '/merchant/webhook/deliveries/not-a-uuid/redeliver');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toContain('application/problem+json');
  });
});
