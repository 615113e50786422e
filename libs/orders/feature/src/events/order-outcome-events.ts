import { OrderCompletedV2, OrderFailedV2, OrderOutcomeFields, TransferSucceededV1 } from '@onramp/contracts';
import { completionMessage } from '@onramp/orders-domain';

import { OrderFacts } from '../orders/order.entity';

// The data of order.completed / order.failed: facts with decimal strings, not the webhook body
// (webhook-dispatch presents that).

export interface FailureFacts {
  payedAmount: string; // "0" when no money arrived
  reason: string;
  transactionHash: string; // of a reverted transfer; "" when nothing reached the chain
}

const outcomeFieldsOf = (order: OrderFacts, payedAmount: string): OrderOutcomeFields => ({
  orderUuid: order.uuid,
  kycUserUuid: order.kycUserUuid,
  amount: order.amount,
  currency: order.currency,
  reference: order.reference,
  recipientAddress: order.recipientAddress,
  payedAmount,
});

export function orderCompletedData(
  order: OrderFacts,
  transfer: TransferSucceededV1,
  at: Date,
): OrderCompletedV2 {
  return {
    ...outcomeFieldsOf(order, transfer.payedAmount),
    payerAccountHolderName: transfer.payerAccountHolderName,
    fxRateBase: transfer.fxRateBase,
    fxRateEffective: transfer.fxRateEffective,
    fxRateUpdatedAt: new Date(transfer.fxRateUpdatedAt).toISOString(), // UTC with milliseconds
    sentTokenAmount: transfer.sentTokenAmount,
    sentTokenCurrency: 'USDC',
    transactionHash: transfer.transactionHash,
    message: completionMessage(transfer.payedAmount, transfer.sentTokenAmount, order.recipientAddress),
    completedAt: at.toISOString(),
  };
}

// A failed order sent nothing: 0 tokens, no token currency.
export function orderFailedData(order: OrderFacts, facts: FailureFacts, at: Date): OrderFailedV2 {
  return {
    ...outcomeFieldsOf(order, facts.payedAmount),
    sentTokenAmount: '0',
    sentTokenCurrency: null,
    transactionHash: facts.transactionHash,
    reason: facts.reason,
    failedAt: at.toISOString(),
  };
}
