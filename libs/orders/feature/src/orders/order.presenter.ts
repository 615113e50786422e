import { toWireNumber } from '@onramp/money';
import type { Order } from '@onramp/sdk';
import { buildEpcQrPayload } from '@onramp/sepa';

import { OrderEntity } from './order.entity';

// docs/api.md, Conventions, order object (create, payment-details, list): the type the SDK publishes
// to merchants (it ships standalone, so it cannot import ours). Ours is that type: an answer the SDK
// does not describe fails the typecheck here instead of surprising a merchant.
export type OrderResponse = Order;

export function presentOrder(order: OrderEntity): OrderResponse {
  return {
    uuid: order.uuid,
    amount: toWireNumber(order.amount),
    currency: order.currency,
    recepientAddress: order.recipientAddress,
    kycUserUuid: order.kycUserUuid,
    iban: order.iban,
    bic: order.bic,
    ...(order.beneficiaryName ? { beneficiaryName: order.beneficiaryName } : {}),
    reference: order.reference,
    orderStatus: order.status,
    status: order.status,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    ...(order.payedAmount !== null ? { payedAmount: toWireNumber(order.payedAmount) } : {}),
    ...(order.sentTokenAmount !== null ? { sentTokenAmount: toWireNumber(order.sentTokenAmount) } : {}),
    ...(order.transactionHash ? { transactionHash: order.transactionHash } : {}),
    ...(order.failureReason !== null ? { failureReason: order.failureReason } : {}),
    ...(order.completedAt ? { completedAt: order.completedAt.toISOString() } : {}),
    ...(order.failedAt ? { failedAt: order.failedAt.toISOString() } : {}),
    ...(order.status === 'CREATED' && order.beneficiaryName ? { epcQrPayload: epcQrPayloadOf(order) } : {}),
  };
}

// What a banking app reads from the QR code: account, holder, amount and the RF reference. Only an
// order still waiting for its money has one (a finished order takes no payment).
export function epcQrPayloadOf(order: OrderEntity): string {
  return buildEpcQrPayload({
    beneficiaryName: order.beneficiaryName ?? '',
    iban: order.iban,
    bic: order.bic,
    amount: order.amount,
    reference: order.reference,
  });
}
