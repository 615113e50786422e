export const DeliveryStatuses = ['PENDING', 'NO_ENDPOINT', 'DELIVERED', 'DEAD', 'DISABLED'] as const;

// PENDING: waiting for its next attempt; NO_ENDPOINT: the merchant has no URL yet (sent once it has);
// DISABLED: the endpoint answered 410 and waits for a new URL; DELIVERED and DEAD are final until a
// manual redelivery.
export type DeliveryStatus = (typeof DeliveryStatuses)[number];

export type AttemptOutcome = 'delivered' | 'gone' | 'failed';

// 2xx = delivered; 410 Gone = the receiver asks us to stop (endpoint disabled); everything else,
// redirects included (never followed), is a failure to retry.
export function classifyResponse(statusCode: number): AttemptOutcome {
  if (statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 410) return 'gone';
  return 'failed';
}
