import { createHmac } from 'node:crypto';

import { Clock, systemClock } from '../clock';
import { bodyBytes, equalBytes, HeaderValue, isRawBody, RawBody } from './verify-webhook';

// Node's IncomingHttpHeaders (lower-case names) or a fetch Headers.
export type WebhookRequestHeaders = Headers | Readonly<Record<string, HeaderValue>>;

export interface StandardWebhookOptions {
  toleranceSeconds?: number; // replay window, 5 minutes by default as in the Standard Webhooks reference
  clock?: Clock;
}

const SECRET_PREFIX = 'whsec_';

function header(headers: WebhookRequestHeaders | undefined, name: string): string | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

// Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature): "v1,<base64 HMAC-SHA256 of
// id.timestamp.body>" keyed with the base64-decoded part of the secret after "whsec_". Rejects
// timestamps outside the tolerance, so a captured request cannot be replayed later.
export function verifyStandardWebhook(
  rawBody: RawBody,
  headers: WebhookRequestHeaders,
  secret: string | undefined | null,
  options: StandardWebhookOptions = {},
): boolean {
  // never throws: a missing or malformed secret, header or body is not a valid signature
  if (typeof secret !== 'string' || !isRawBody(rawBody)) return false;
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d{1,15}$/.test(timestamp)) return false;
  const nowSeconds = Math.floor((options.clock ?? systemClock)().getTime() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (options.toleranceSeconds ?? 300)) return false;

  const encodedKey = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encodedKey)) return false;
  const expected = createHmac('sha256', Buffer.from(encodedKey, 'base64'))
    .update(`${id}.${timestamp}.`, 'utf8')
    .update(bodyBytes(rawBody))
    .digest();
  // During a secret rotation the header may carry several space-separated signatures.
  return signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .some((entry) => equalBytes(Buffer.from(entry.slice(3), 'base64'), expected));
}
