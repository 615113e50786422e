import { createHmac, timingSafeEqual } from 'node:crypto';

import { OrderWebhook } from '../models/webhook.types';

export type RawBody = string | Uint8Array;

// What Node's http (and Express, Fastify) hands over for one header: a repeated header is an array.
export type HeaderValue = string | readonly string[] | undefined;

export const bodyBytes = (body: RawBody): Buffer =>
  typeof body === 'string'
    ? Buffer.from(body, 'utf8')
    : Buffer.from(body.buffer, body.byteOffset, body.byteLength);

export const isRawBody = (body: unknown): body is RawBody =>
  typeof body === 'string' || body instanceof Uint8Array;

export function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

// X-Webhook-Signature: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret string
// as PUT /merchant/webhook returned it ("whsec_..." included). Verify the raw bytes BEFORE parsing:
// re-serialised JSON does not keep them.
// Never throws: a missing or malformed secret, signature or body (say, a secret variable left
// undefined, or a body already parsed to an object) is simply not a valid signature.
export function verifyWebhook(
  rawBody: RawBody,
  signatureHeader: HeaderValue,
  secret: string | undefined | null,
): boolean {
  // A repeated header is ambiguous; refuse rather than pick one.
  if (typeof signatureHeader !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
  if (!isRawBody(rawBody)) return false;
  const given = signatureHeader.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(bodyBytes(rawBody)).digest();
  return equalBytes(expected, Buffer.from(given, 'hex'));
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

// Verifies, then parses: the only way a webhook body should become an object.
export function parseWebhook(
  rawBody: RawBody,
  signatureHeader: HeaderValue,
  secret: string | undefined | null,
): OrderWebhook {
  if (!verifyWebhook(rawBody, signatureHeader, secret))
    throw new WebhookVerificationError('the X-Webhook-Signature does not match the body');
  return JSON.parse(bodyBytes(rawBody).toString('utf8')) as OrderWebhook;
}
