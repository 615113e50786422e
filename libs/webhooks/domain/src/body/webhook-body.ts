// The order of docs/api.md's lists (Events). Events pass through JSONB on their way here, which keeps
// values but not key order; a merchant reading a body should see it as the spec lists it.
const COMPLETED_FIELDS = [
  'event',
  'status',
  'orderUuid',
  'userUuid',
  'amount',
  'payedAmount',
  'payerAccountHolderName',
  'currency',
  'fxRateBase',
  'fxRateEffective',
  'fxRateUpdatedAt',
  'sentTokenAmount',
  'sentTokenCurrency',
  'reference',
  'recipientAddress',
  'transactionHash',
  'message',
  'timestamp',
] as const;

const FAILED_FIELDS = [
  'event',
  'status',
  'orderUuid',
  'userUuid',
  'amount',
  'payedAmount',
  'sentTokenAmount',
  'sentTokenCurrency',
  'currency',
  'reference',
  'recipientAddress',
  'transactionHash',
  'message',
  'timestamp',
] as const;

// Serialises a webhook body in the spec's field order; fields the spec does not list keep their
// place after those (none are expected: the event data IS the body).
export function serializeWebhookBody(body: Record<string, unknown>): string {
  const order: readonly string[] = body['event'] === 'order.failed' ? FAILED_FIELDS : COMPLETED_FIELDS;
  const ordered: Record<string, unknown> = {};
  for (const key of order) if (key in body) ordered[key] = body[key];
  for (const [key, value] of Object.entries(body)) if (!(key in ordered)) ordered[key] = value;
  return JSON.stringify(ordered);
}
