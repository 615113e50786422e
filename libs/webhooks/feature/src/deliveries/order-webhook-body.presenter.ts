import { EventEnvelope, OrderCompletedV2, OrderFailedV2, Topics } from '@onramp/contracts';
import { toWireNumber } from '@onramp/money';

export type OrderOutcomeEvent =
  | EventEnvelope<typeof Topics.OrderCompleted, OrderCompletedV2>
  | EventEnvelope<typeof Topics.OrderFailed, OrderFailedV2>;

// The webhook bodies of docs/api.md (Events), defined here and nowhere else: order.completed /
// order.failed carry the facts as decimal strings, and only here do amounts become JSON numbers
// and fields take the body's names. Each literal lists the keys in the spec's order, which
// JSON.stringify keeps.

// ISO 8601 UTC with milliseconds, whatever offset or precision the event carried.
const isoMillis = (value: string): string => new Date(value).toISOString();

export const orderCompletedBody = (data: OrderCompletedV2) => ({
  event: Topics.OrderCompleted,
  status: 'COMPLETED' as const,
  orderUuid: data.orderUuid,
  userUuid: data.kycUserUuid,
  amount: toWireNumber(data.amount),
  payedAmount: toWireNumber(data.payedAmount),
  payerAccountHolderName: data.payerAccountHolderName,
  currency: data.currency,
  fxRateBase: data.fxRateBase,
  fxRateEffective: data.fxRateEffective,
  fxRateUpdatedAt: isoMillis(data.fxRateUpdatedAt),
  sentTokenAmount: toWireNumber(data.sentTokenAmount),
  sentTokenCurrency: data.sentTokenCurrency,
  reference: data.reference,
  recipientAddress: data.recipientAddress,
  transactionHash: data.transactionHash,
  message: data.message,
  timestamp: isoMillis(data.completedAt),
});

// No payerAccountHolderName and no fxRate* fields (docs/api.md).
export const orderFailedBody = (data: OrderFailedV2) => ({
  event: Topics.OrderFailed,
  status: 'FAILED' as const,
  orderUuid: data.orderUuid,
  userUuid: data.kycUserUuid,
  amount: toWireNumber(data.amount),
  payedAmount: toWireNumber(data.payedAmount),
  sentTokenAmount: toWireNumber(data.sentTokenAmount),
  sentTokenCurrency: data.sentTokenCurrency,
  currency: data.currency,
  reference: data.reference,
  recipientAddress: data.recipientAddress,
  transactionHash: data.transactionHash,
  message: data.reason,
  timestamp: isoMillis(data.failedAt),
});

export type OrderCompletedWebhookBody = ReturnType<typeof orderCompletedBody>;
export type OrderFailedWebhookBody = ReturnType<typeof orderFailedBody>;

// The exact bytes that are signed and sent, fixed when the delivery is recorded.
export function webhookBodyOf(event: OrderOutcomeEvent): string {
  return JSON.stringify(
    event.type === Topics.OrderCompleted ? orderCompletedBody(event.data) : orderFailedBody(event.data),
  );
}
