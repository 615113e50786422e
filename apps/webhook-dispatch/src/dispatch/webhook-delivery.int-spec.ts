import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { EventEnvelope } from '@onramp/contracts';
import { DEVELOPMENT_KEYS, FieldCipher, sealPayerName } from '@onramp/crypto';
import { uuidv7 } from '@onramp/messaging';
import { waitFor } from '@onramp/testing';
import { verifySignature, verifyStandardSignature } from '@onramp/webhooks-domain';

import type { DeliveryView } from '@onramp/webhooks-feature';
import { orderCompleted, orderFailed, OrderOutcomeEnvelope, publish } from '../testing/order-events';
import { ReceivedRequest, WebhookReceiver } from '../testing/webhook-receiver';
import { useWebhookSuite } from '../testing/webhook-suite';
import { WebhookTestApp } from '../testing/webhook-test-app';

describe('webhook delivery from order events (integration)', () => {
  const suite = useWebhookSuite({
    // Long enough that a busy CI machine still delivers the other merchant while two attempts hang.
    WEBHOOK_TIMEOUT_MS: '3000',
    // Few slots in total: without per-merchant limits one hanging merchant would take them all.
    WEBHOOK_MAX_IN_FLIGHT: '4',
    WEBHOOK_MAX_IN_FLIGHT_PER_MERCHANT: '2',
  });
  let t: WebhookTestApp;
  let receiver: WebhookReceiver;
  let producer: Producer;

  const auth = (merchantId: string) => ({ authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` });
  const register = async (merchantId: string, path: string): Promise<{ url: string; secret?: string }> => {
    const res = await t.app.inject({
      method: 'PUT',
      url: '/merchant/webhook',
      headers: auth(merchantId),
      payload: { url: receiver.url(path) },
    });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const deliveries = async (merchantId: string): Promise<DeliveryView[]> =>
    (
      await t.app.inject({ method: 'GET', url: '/merchant/webhook/deliveries', headers: auth(merchantId) })
    ).json();
  const deliveryWhen = (
    merchantId: string,
    event: OrderOutcomeEnvelope,
    ok: (d: DeliveryView) => boolean,
    timeoutMs = 20_000,
  ) =>
    waitFor(async () => (await deliveries(merchantId)).find((d) => d.eventId === event.id && ok(d)), {
      timeoutMs,
      description: `delivery of ${event.id}`,
    });
  const requestsFor = (path: string, count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> =>
    waitFor(() => receiver.requests(path).length >= count && receiver.requests(path), {
      timeoutMs,
      description: `${count} requests to ${path}`,
    });
  const newMerchant = () => ({ merchantId: randomUUID(), path: `/hooks/${randomUUID()}` });

  beforeAll(() => {
    ({ t, receiver, producer } = suite);
  });

  it("opens the payer's name sealed in the event, keeps the body sealed at rest and signs the plaintext", async () => {
    const { merchantId, path } = newMerchant();
    const { secret } = await register(merchantId, path);
    const orderUuid = randomUUID();
    const payerData = new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption);
    const event = orderCompleted(merchantId, {
      orderUuid,
      payerAccountHolderName: sealPayerName(payerData, orderUuid, 'Émilie du Châtelet'),
    });
    await publish(producer, event);

    const [req] = await requestsFor(path, 1);
    expect(JSON.parse(req.body)).toMatchObject({ orderUuid, payerAccountHolderName: 'Émilie du Châtelet' });
    expect(verifySignature(secret!, req.body, String(req.headers['x-webhook-signature']))).toBe(true);
    const [row] = await t.dataSource.query<{ id: string; body: string }[]>(
      `SELECT id, body FROM webhooks.deliveries WHERE event_id = $1`,
      [event.id],
    );
    expect(row.body).toMatch(/^v1\./);
    expect(row.body).not.toContain('Châtelet');
    expect(payerData.decrypt(row.body, `webhook-body:${row.id}`)).toBe(req.body);
  });

  it('POSTs the docs/api.md body of the event, signed both ways, with a stable event id', async () => {
    const { merchantId, path } = newMerchant();
    const { secret } = await register(merchantId, path);
    const event = orderCompleted(merchantId);
    await publish(producer, event);

    const [req] = await requestsFor(path, 1);
    // The spec's fields in the spec's order, amounts as JSON numbers.
    expect(req.body).toBe(
      JSON.stringify({
        event: 'order.completed',
        status: 'COMPLETED',
        orderUuid: event.data.orderUuid,
        userUuid: event.data.kycUserUuid,
        amount: 100.5,
        payedAmount: 100.5,
        payerAccountHolderName: 'Jürgen Müller',
        currency: 'EUR',
        fxRateBase: '1.0812',
        fxRateEffective: '1.0704',
        fxRateUpdatedAt: '2025-06-01T10:00:00.000Z',
        sentTokenAmount: 107.5752,
        sentTokenCurrency: 'USDC',
        reference: 'RF18539007547034',
        recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        transactionHash: `0x${'ab'.repeat(32)}`,
        message: 'Order completed',
        timestamp: (event.data as { completedAt: string }).completedAt,
      }),
    );
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['user-agent']).toBe('onramp-webhooks/1');
    expect(req.headers['x-webhook-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(verifySignature(secret!, req.body, String(req.headers['x-webhook-signature']))).toBe(true);
    expect(req.headers['x-webhook-id']).toBe(event.id);
    expect(req.headers['webhook-id']).toBe(event.id);
    expect(req.headers['x-webhook-timestamp']).toBe(req.headers['webhook-timestamp']);
    expect(Math.abs(Number(req.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    const standard = {
      id: String(req.headers['webhook-id']),
      timestamp: String(req.headers['webhook-timestamp']),
      signature: String(req.headers['webhook-signature']),
    };
    expect(
      verifyStandardSignature({
        secret: secret!,
        body: req.body,
        headers: standard,
        nowSeconds: Date.now() / 1000,
      }),
    ).toBe(true);

    const delivered = await deliveryWhen(merchantId, event, (d) => d.status === 'DELIVERED');
    expect(delivered).toMatchObject({
      eventType: 'order.completed',
      orderUuid: event.data.orderUuid,
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
    expect(delivered.deliveredAt).not.toBeNull();
  });

  it('delivers order.failed too', async () => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    const event = orderFailed(merchantId);
    await publish(producer, event);
    const [req] = await requestsFor(path, 1);
    expect(req.body).toBe(
      JSON.stringify({
        event: 'order.failed',
        status: 'FAILED',
        orderUuid: event.data.orderUuid,
        userUuid: event.data.kycUserUuid,
        amount: 20,
        payedAmount: 0,
        sentTokenAmount: 0,
        sentTokenCurrency: null,
        currency: 'EUR',
        reference: 'RF71EXPIRED01',
        recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        transactionHash: '',
        message: 'payment rejected by the bank',
        timestamp: (event.data as { failedAt: string }).failedAt,
      }),
    );
    await deliveryWhen(merchantId, event, (d) => d.status === 'DELIVERED' && d.eventType === 'order.failed');
  });

  // Written before the events stopped being webhook bodies, and still on the topic while a
  // deployment rolls: delivered byte for byte as before. The keys are listed here in reverse (JSONB
  // on the way did not keep them either); the body has them in the spec's order.
  it.each([
    [
      'order.completed',
      {
        timestamp: '2025-06-01T10:00:05.123Z',
        message:
          'Payment of 100.10 EUR received; 107.02692 USDC sent to 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        transactionHash: `0x${'cd'.repeat(32)}`,
        recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        reference: 'RF18539007547034',
        sentTokenCurrency: 'USDC',
        sentTokenAmount: 107.02692,
        fxRateUpdatedAt: '2025-06-01T10:00:00.000Z',
        fxRateEffective: '1.0692',
        fxRateBase: '1.08',
        currency: 'EUR',
        payerAccountHolderName: 'Jane Doe',
        payedAmount: 100.1,
        amount: 100.1,
        userUuid: randomUUID(),
        orderUuid: randomUUID(),
        status: 'COMPLETED',
        event: 'order.completed',
      },
    ],
    [
      'order.failed',
      {
        timestamp: '2025-06-01T10:00:05.123Z',
        message: 'USDC transfer reverted',
        transactionHash: `0x${'ef'.repeat(32)}`,
        recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        reference: 'RF71EXPIRED01',
        currency: 'EUR',
        sentTokenCurrency: null,
        sentTokenAmount: 0,
        payedAmount: 0.01,
        amount: 1234567.89,
        userUuid: randomUUID(),
        orderUuid: randomUUID(),
        status: 'FAILED',
        event: 'order.failed',
      },
    ],
  ] as const)('delivers a version-1 %s event (the old body shape) unchanged', async (type, body) => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    const v1: EventEnvelope = {
      id: uuidv7(),
      type,
      version: 1,
      occurredAt: new Date().toISOString(),
      merchantId,
      data: body,
    };
    await publish(producer, v1);
    const [req] = await requestsFor(path, 1);
    const specOrder = Object.fromEntries(Object.entries(body).reverse());
    expect(req.body).toBe(JSON.stringify(specOrder));
  });

  it('retries after failures (honouring Retry-After) and succeeds on the third attempt with the same id', async () => {
    const { merchantId, path } = newMerchant();
    const { secret } = await register(merchantId, path);
    receiver.respond(path, (_req, nth) =>
      nth === 1
        ? { status: 503, headers: { 'Retry-After': '1' } }
        : nth === 2
          ? { status: 503 }
          : { status: 200 },
    );
    const event = orderCompleted(merchantId);
    await publish(producer, event);

    const reqs = await requestsFor(path, 3);
    expect(reqs.map((r) => r.headers['x-webhook-id'])).toEqual([event.id, event.id, event.id]);
    expect(new Set(reqs.map((r) => r.body)).size).toBe(1); // the same bytes every attempt
    for (const r of reqs)
      expect(verifySignature(secret!, r.body, String(r.headers['x-webhook-signature']))).toBe(true);
    expect(reqs[1].at - reqs[0].at).toBeGreaterThanOrEqual(950); // Retry-After: 1, backoff alone would be < 100 ms

    const delivered = await deliveryWhen(merchantId, event, (d) => d.status === 'DELIVERED');
    expect(delivered).toMatchObject({ attempts: 3, lastStatusCode: 200 });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests(path)).toHaveLength(3); // nothing after success
  });

  it('does not follow redirects: a 302 is a failed attempt', async () => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    receiver.respond(path, () => ({ status: 302, headers: { Location: `${path}/moved` } }));
    const event = orderCompleted(merchantId);
    await publish(producer, event);

    await requestsFor(path, 2);
    const pending = await deliveryWhen(merchantId, event, (d) => d.attempts >= 2);
    expect(pending).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 302,
      lastError: expect.stringContaining('redirect'),
    });
    expect(receiver.requests(`${path}/moved`)).toHaveLength(0);
  });

  it('a 410 disables the endpoint until the URL is set again', async () => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    receiver.respond(path, () => ({ status: 410 }));
    const first = orderCompleted(merchantId);
    await publish(producer, first);
    await deliveryWhen(merchantId, first, (d) => d.status === 'DISABLED');
    const endpoint = (
      await t.app.inject({ method: 'GET', url: '/merchant/webhook', headers: auth(merchantId) })
    ).json();
    expect(endpoint).toMatchObject({ disabled: true, disabledReason: expect.stringContaining('410') });

    const second = orderCompleted(merchantId);
    await publish(producer, second);
    await deliveryWhen(merchantId, second, (d) => d.status === 'DISABLED');
    expect(receiver.requests(path)).toHaveLength(1);

    const newPath = `${path}/v2`;
    expect(await register(merchantId, newPath)).toEqual({ url: receiver.url(newPath) }); // no new secret
    const reqs = await requestsFor(newPath, 2);
    expect(reqs.map((r) => r.headers['x-webhook-id']).sort()).toEqual([first.id, second.id].sort());
    await deliveryWhen(merchantId, first, (d) => d.status === 'DELIVERED');
    await deliveryWhen(merchantId, second, (d) => d.status === 'DELIVERED');
    const after = (
      await t.app.inject({ method: 'GET', url: '/merchant/webhook', headers: auth(merchantId) })
    ).json();
    expect(after.disabled).toBe(false);
  });

  it('keeps events for a merchant without an endpoint and sends them once one is registered', async () => {
    const { merchantId, path } = newMerchant();
    const event = orderCompleted(merchantId);
    await publish(producer, event);
    const waiting = await deliveryWhen(merchantId, event, (d) => d.status === 'NO_ENDPOINT');
    expect(waiting).toMatchObject({ attempts: 0, nextAttemptAt: null });

    const { secret } = await register(merchantId, path);
    const [req] = await requestsFor(path, 1);
    expect(req.headers['x-webhook-id']).toBe(event.id);
    expect(verifySignature(secret!, req.body, String(req.headers['x-webhook-signature']))).toBe(true);
    await deliveryWhen(merchantId, event, (d) => d.status === 'DELIVERED');
  });

  it('gives a delivery the endpoint state committed while its event waited for the merchant lock', async () => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    const event = orderCompleted(merchantId);
    // What disabling after a 410 does: the merchant's lock taken exclusive, then the endpoint changed.
    const disabler = t.dataSource.createQueryRunner();
    await disabler.connect();
    try {
      await disabler.startTransaction();
      await disabler.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`webhooks:merchant:${merchantId}`]);
      await publish(producer, event);
      await waitFor(
        async () =>
          (
            await t.dataSource.query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
            )
          ).length > 0,
        { timeoutMs: 20_000, description: 'the event to wait for the merchant lock' },
      );
      await disabler.query(
        `UPDATE webhooks.endpoints SET disabled_at = now(), disabled_reason = 'test' WHERE merchant_id = $1`,
        [merchantId],
      );
      await disabler.commitTransaction();
    } finally {
      await disabler.release();
    }
    await deliveryWhen(merchantId, event, (d) => d.status === 'DISABLED');
    expect(receiver.requests(path)).toHaveLength(0);
  });

  it('turns the same event published twice into one delivery', async () => {
    const { merchantId, path } = newMerchant();
    await register(merchantId, path);
    const event = orderCompleted(merchantId);
    await publish(producer, event);
    await publish(producer, event);
    // Same key, same partition: once the marker is through, the duplicate has been handled.
    const marker = orderCompleted(merchantId, { orderUuid: event.data.orderUuid });
    await publish(producer, marker);
    await deliveryWhen(merchantId, marker, (d) => d.status === 'DELIVERED');
    await deliveryWhen(merchantId, event, (d) => d.status === 'DELIVERED');

    expect((await deliveries(merchantId)).filter((d) => d.eventId === event.id)).toHaveLength(1);
    expect(receiver.requests(path).filter((r) => r.headers['x-webhook-id'] === event.id)).toHaveLength(1);
  });

  it('a hanging endpoint holds only its own slots; other merchants are delivered meanwhile', async () => {
    const slow = newMerchant();
    const fast = newMerchant();
    await register(slow.merchantId, slow.path);
    await register(fast.merchantId, fast.path);
    receiver.respond(slow.path, () => ({ status: 200, hang: true }));
    const slowEvents = Array.from({ length: 5 }, () => orderCompleted(slow.merchantId));
    for (const e of slowEvents) await publish(producer, e);
    const [firstHanging] = await requestsFor(slow.path, 2);

    const fastEvent = orderCompleted(fast.merchantId);
    await publish(producer, fastEvent);
    const [req] = await requestsFor(fast.path, 1);
    expect(req.at - firstHanging.at).toBeLessThan(3000); // before any hanging request timed out
    expect(receiver.maxInFlight.get(slow.path)).toBeLessThanOrEqual(2);

    // The timeout cuts the hanging attempts and they are recorded as failures.
    const timedOut = await deliveryWhen(
      slow.merchantId,
      slowEvents[0],
      (d) => d.attempts >= 1 && d.lastError !== null,
    );
    expect(timedOut).toMatchObject({
      status: 'PENDING',
      lastStatusCode: null,
      lastError: expect.stringContaining('no response within 3000 ms'),
    });
  });
});
