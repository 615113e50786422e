import { toWireNumber } from '@onramp/money';

// The two webhook bodies of docs/api.md (Events). They are also the data of order.completed /
// order.failed, so webhook-dispatch sends them without asking anyone. Amounts are exact decimal
// strings until the last step, where they become JSON numbers.

export type Clock = () => Date;

export interface OrderFacts {
  uuid: string;
  kycUserUuid: string;
  amount: string; // EUR decimal string
  currency: 'EUR';
  reference: string;
  recipientAddress: string;
}

export interface CompletionFacts {
  payedAmount: string;
  payerAccountHolderName: string;
  fxRateBase: string;
  fxRateEffective: string;
  fxRateUpdatedAt: string; // ISO 8601
  sentTokenAmount: string; // USDC decimal string, up to 6 decimals
  transactionHash: string;
}

export interface FailureFacts {
  payedAmount: string; // "0" when no money arrived
  reason: string;
  transactionHash?: string; // of a reverted transfer; "" when nothing reached the chain
}

export interface OrderCompletedBody {
  event: 'order.completed';
  status: 'COMPLETED';
  orderUuid: string;
  userUuid: string;
  amount: number;
  payedAmount: number;
  payerAccountHolderName: string;
  currency: 'EUR';
  fxRateBase: string;
  fxRateEffective: string;
  fxRateUpdatedAt: string;
  sentTokenAmount: number;
  sentTokenCurrency: 'USDC';
  reference: string;
  recipientAddress: string;
  transactionHash: string;
  message: string;
  timestamp: string;
}

export interface OrderFailedBody {
  event: 'order.failed';
  status: 'FAILED';
  orderUuid: string;
  userUuid: string;
  amount: number;
  payedAmount: number;
  sentTokenAmount: number;
  sentTokenCurrency: 'USDC' | null;
  currency: 'EUR';
  reference: string;
  recipientAddress: string;
  transactionHash: string;
  message: string;
  timestamp: string;
}

export const systemClock: Clock = () => new Date();

// ISO 8601 UTC with milliseconds, whatever offset or precision the input had.
function isoMillis(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`not an ISO 8601 timestamp: ${value}`);
  return date.toISOString();
}

export function completionMessage(facts: CompletionFacts, order: OrderFacts): string {
  return `Payment of ${facts.payedAmount} EUR received; ${facts.sentTokenAmount} USDC sent to ${order.recipientAddress}`;
}

export function buildOrderCompletedBody(
  order: OrderFacts,
  facts: CompletionFacts,
  clock: Clock = systemClock,
): OrderCompletedBody {
  return {
    event: 'order.completed',
    status: 'COMPLETED',
    orderUuid: order.uuid,
    userUuid: order.kycUserUuid,
    amount: toWireNumber(order.amount),
    payedAmount: toWireNumber(facts.payedAmount),
    payerAccountHolderName: facts.payerAccountHolderName,
    currency: order.currency,
    fxRateBase: facts.fxRateBase,
    fxRateEffective: facts.fxRateEffective,
    fxRateUpdatedAt: isoMillis(facts.fxRateUpdatedAt),
    sentTokenAmount: toWireNumber(facts.sentTokenAmount),
    sentTokenCurrency: 'USDC',
    reference: order.reference,
    recipientAddress: order.recipientAddress,
    transactionHash: facts.transactionHash,
    message: completionMessage(facts, order),
    timestamp: clock().toISOString(),
  };
}

// Nothing is ever sent for a failed order: 0 tokens, no token currency. The body carries no payer
// name and no FX fields (docs/api.md).
export function buildOrderFailedBody(
  order: OrderFacts,
  facts: FailureFacts,
  clock: Clock = systemClock,
): OrderFailedBody {
  return {
    event: 'order.failed',
    status: 'FAILED',
    orderUuid: order.uuid,
    userUuid: order.kycUserUuid,
    amount: toWireNumber(order.amount),
    payedAmount: toWireNumber(facts.payedAmount),
    sentTokenAmount: 0,
    sentTokenCurrency: null,
    currency: order.currency,
    reference: order.reference,
    recipientAddress: order.recipientAddress,
    transactionHash: facts.transactionHash ?? '',
    message: facts.reason,
    timestamp: clock().toISOString(),
  };
}
