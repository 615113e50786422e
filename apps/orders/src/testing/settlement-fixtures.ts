import { randomBytes, randomUUID } from 'node:crypto';

import { PaymentConfirmedV1, TransferSucceededV1 } from '@onramp/contracts';

// What payment-ingest and chain-settlement would publish for an order, for settlement tests.

export const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
export const txHash = () => `0x${randomBytes(32).toString('hex')}`;

export const ISO_MILLIS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface CreatedOrder {
  uuid: string;
  reference: string;
  kycUserUuid: string;
}

export const paymentConfirmed = (order: CreatedOrder): PaymentConfirmedV1 => ({
  orderUuid: order.uuid,
  bankTransactionId: randomUUID(),
  reference: order.reference,
  payedAmount: '100.10',
  currency: 'EUR',
  payerAccountHolderName: 'Jane Doe',
  recipientAddress: ADDRESS,
  bookedAt: new Date().toISOString(),
});
export const transferSucceeded = (order: CreatedOrder, hash = txHash()): TransferSucceededV1 => ({
  orderUuid: order.uuid,
  transactionHash: hash,
  payedAmount: '100.10',
  sentTokenAmount: '107.02692',
  sentTokenCurrency: 'USDC',
  recipientAddress: ADDRESS,
  fxRateBase: '1.08',
  fxRateEffective: '1.0692',
  fxRateUpdatedAt: '2025-03-01T11:59:00.000Z',
  chainId: 31337,
  payerAccountHolderName: 'Jane Doe',
});
