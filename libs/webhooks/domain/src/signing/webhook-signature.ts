import { createHmac, Hmac, timingSafeEqual } from 'node:crypto';

import { standardSigningKey } from './webhook-secret';

export type BodyBytes = string | Uint8Array;

// The HMAC reads the body as it is (a string as its UTF-8 bytes), without a copy per signature.
const update = (mac: Hmac, body: BodyBytes): Hmac =>
  typeof body === 'string' ? mac.update(body, 'utf8') : mac.update(body);

// The two HMAC keys of a secret: the UTF-8 bytes of the whole string (X-Webhook-Signature) and the
// decoded part after "whsec_" (Standard Webhooks). Derived once per secret by whoever signs many
// deliveries with it: decoding them again for every delivery was a fifth of the signing's own work.
export interface SigningKeys {
  body: Buffer;
  standard: Buffer;
}

export function signingKeysOf(secret: string): SigningKeys {
  return { body: Buffer.from(secret, 'utf8'), standard: standardSigningKey(secret) };
}

// X-Webhook-Signature: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the UTF-8 bytes of
// the whole secret string as the merchant received it ("whsec_..." included).
export function signBody(secret: string, body: BodyBytes): string {
  return bodySignature(Buffer.from(secret, 'utf8'), body);
}

export function bodySignature(key: Buffer, body: BodyBytes): string {
  return update(createHmac('sha256', key), body).digest('hex');
}

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export function verifySignature(secret: string, body: BodyBytes, signature: string): boolean {
  const given = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  return equalBytes(Buffer.from(signBody(secret, body), 'hex'), Buffer.from(given, 'hex'));
}

export interface StandardSignatureInput {
  secret: string;
  id: string;
  timestamp: number; // unix seconds
  body: BodyBytes;
}

// Standard Webhooks: base64 HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the decoded secret.
export function standardSignature({ secret, id, timestamp, body }: StandardSignatureInput): string {
  return standardSignatureWith(standardSigningKey(secret), { id, timestamp, body });
}

export function standardSignatureWith(
  key: Buffer,
  { id, timestamp, body }: Omit<StandardSignatureInput, 'secret'>,
): string {
  const mac = createHmac('sha256', key);
  mac.update(`${id}.${timestamp}.`, 'utf8');
  update(mac, body);
  return `v1,${mac.digest('base64')}`;
}

export interface VerifyStandardInput {
  secret: string;
  body: BodyBytes;
  headers: { id: string; timestamp: string; signature: string };
  nowSeconds: number;
  toleranceSeconds?: number; // replay window; 5 minutes as in the Standard Webhooks reference
}

// Receiver-side check: a fresh timestamp and at least one matching "v1,<sig>" entry (the header may
// carry several, space-separated, during a secret rotation).
export function verifyStandardSignature(input: VerifyStandardInput): boolean {
  const { id, timestamp, signature } = input.headers;
  if (!/^\d+$/.test(timestamp)) return false;
  const ts = Number(timestamp);
  if (Math.abs(input.nowSeconds - ts) > (input.toleranceSeconds ?? 300)) return false;
  let expected: Buffer;
  try {
    expected = Buffer.from(
      standardSignature({ secret: input.secret, id, timestamp: ts, body: input.body }).slice(3),
      'base64',
    );
  } catch {
    return false;
  }
  return signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => equalBytes(Buffer.from(entry.slice(3), 'base64'), expected));
}
