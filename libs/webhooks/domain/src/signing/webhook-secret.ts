import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_BYTES = 24;

export type RandomBytes = (size: number) => Uint8Array;

// Standard Webhooks format: "whsec_" + base64 of the key bytes.
export function generateWebhookSecret(random: RandomBytes = randomBytes): string {
  return WEBHOOK_SECRET_PREFIX + Buffer.from(random(WEBHOOK_SECRET_BYTES)).toString('base64');
}

// The key of the Standard Webhooks signature: the base64-decoded part after "whsec_".
export function standardSigningKey(secret: string): Buffer {
  if (!secret.startsWith(WEBHOOK_SECRET_PREFIX)) throw new Error('webhook secret must start with whsec_');
  const encoded = secret.slice(WEBHOOK_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) throw new Error('webhook secret is not base64 after whsec_');
  return Buffer.from(encoded, 'base64');
}
