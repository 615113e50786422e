import { bodySignature, SigningKeys, standardSignatureWith } from './webhook-signature';

export const WEBHOOK_USER_AGENT = 'onramp-webhooks/1';

export interface WebhookHeadersInput {
  keys: SigningKeys; // signingKeysOf(the endpoint's secret)
  eventId: string; // stable across retries so receivers can dedupe
  body: string;
  timestampSeconds: number; // fresh per attempt so receivers can reject replays
}

// Every header of one delivery attempt (docs/api.md, Webhooks).
export function webhookHeaders({
  keys,
  eventId,
  body,
  timestampSeconds,
}: WebhookHeadersInput): Record<string, string> {
  const timestamp = String(timestampSeconds);
  return {
    'Content-Type': 'application/json',
    'User-Agent': WEBHOOK_USER_AGENT,
    'X-Webhook-Signature': bodySignature(keys.body, body),
    'X-Webhook-Id': eventId,
    'X-Webhook-Timestamp': timestamp,
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': standardSignatureWith(keys.standard, {
      id: eventId,
      timestamp: timestampSeconds,
      body,
    }),
  };
}
