import { createHmac } from 'node:crypto';

import { parseWebhook, verifyWebhook, WebhookVerificationError } from './verify-webhook';

const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX';
const BODY = '{"event":"order.completed","status":"COMPLETED","amount":100.5,"payerAccountHolderName":"Zoë"}';
// Computed here, independently of the code under test.
const SIGNATURE = createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex');

describe('verifyWebhook (X-Webhook-Signature)', () => {
  it('accepts the genuine signature of the exact body, as a string or as bytes', () => {
    expect(verifyWebhook(BODY, SIGNATURE, SECRET)).toBe(true);
    expect(verifyWebhook(Buffer.from(BODY, 'utf8'), SIGNATURE, SECRET)).toBe(true);
    expect(verifyWebhook(new TextEncoder().encode(BODY), SIGNATURE, SECRET)).toBe(true);
    expect(verifyWebhook(BODY, ` ${SIGNATURE.toUpperCase()} `, SECRET)).toBe(true);
  });

  it('rejects a tampered body, a re-serialised body and another secret', () => {
    expect(verifyWebhook(BODY.replace('100.5', '1005'), SIGNATURE, SECRET)).toBe(false);
    expect(verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 1), SIGNATURE, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, SIGNATURE, `${SECRET}x`)).toBe(false);
    expect(verifyWebhook(BODY, SIGNATURE, '')).toBe(false);
  });

  it('rejects an absent, empty, truncated, non-hex or repeated signature header', () => {
    expect(verifyWebhook(BODY, undefined, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, '', SECRET)).toBe(false);
    expect(verifyWebhook(BODY, SIGNATURE.slice(0, 63), SECRET)).toBe(false);
    expect(verifyWebhook(BODY, `${SIGNATURE}00`, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, `zz${SIGNATURE.slice(2)}`, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, `sha256=${SIGNATURE}`, SECRET)).toBe(false);
    expect(verifyWebhook(BODY, [SIGNATURE, SIGNATURE], SECRET)).toBe(false);
  });
  it('returns false, never throws, for a missing or malformed secret, signature or body', () => {
    const untyped = verifyWebhook as (body: unknown, signature: unknown, secret: unknown) => boolean;
    for (const secret of [undefined, null, 42, {}, ['x']])
      expect(untyped(BODY, SIGNATURE, secret)).toBe(false);
    for (const signature of [null, 42, {}, [SIGNATURE]]) expect(untyped(BODY, signature, SECRET)).toBe(false);
    for (const body of [undefined, null, JSON.parse(BODY), 42])
      expect(untyped(body, SIGNATURE, SECRET)).toBe(false);
  });
});

describe('parseWebhook', () => {
  it('returns the typed body only after the signature checks out', () => {
    const event = parseWebhook(BODY, SIGNATURE, SECRET);
    expect(event.event).toBe('order.completed');
    if (event.event === 'order.completed') expect(event.payerAccountHolderName).toBe('Zoë');
    expect(() => parseWebhook(BODY, undefined, SECRET)).toThrow(WebhookVerificationError);
  });
});
