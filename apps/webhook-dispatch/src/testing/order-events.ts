import { randomUUID } from 'node:crypto';

import { Producer } from 'kafkajs';

import { EventEnvelope, OrderCompletedV2, OrderFailedV2, Topics } from '@onramp/contracts';
import { envelope, produce, testKafka } from '@onramp/testing';

import type { OrderOutcomeEvent } from '@onramp/webhooks-feature';

export type OrderOutcomeEnvelope = OrderOutcomeEvent;

export const testProducer = (): Producer => testKafka().producer();

// As the orders service would emit it.
export function orderCompleted(
  merchantId: string,
  overrides: Partial<OrderCompletedV2> = {},
): OrderOutcomeEnvelope {
  return envelope(Topics.OrderCompleted, merchantId, {
    orderUuid: randomUUID(),
    kycUserUuid: randomUUID(),
    amount: '100.50',
    currency: 'EUR',
    reference: 'RF18539007547034',
    recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    payedAmount: '100.50',
    payerAccountHolderName: 'Jürgen Müller',
    fxRateBase: '1.0812',
    fxRateEffective: '1.0704',
    fxRateUpdatedAt: '2025-06-01T10:00:00.000Z',
    sentTokenAmount: '107.5752',
    sentTokenCurrency: 'USDC',
    transactionHash: `0x${'ab'.repeat(32)}`,
    message: 'Order completed',
    completedAt: new Date().toISOString(),
    ...overrides,
  });
}

export function orderFailed(merchantId: string): OrderOutcomeEnvelope {
  const data: OrderFailedV2 = {
    orderUuid: randomUUID(),
    kycUserUuid: randomUUID(),
    amount: '20',
    currency: 'EUR',
    reference: 'RF71EXPIRED01',
    recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    payedAmount: '0',
    sentTokenAmount: '0',
    sentTokenCurrency: null,
    transactionHash: '',
    reason: 'payment rejected by the bank',
    failedAt: new Date().toISOString(),
  };
  return envelope(Topics.OrderFailed, merchantId, data);
}

// Publishes like the orders outbox relay: key = order uuid, the envelope as JSON, event headers.
export const publish = (producer: Producer, event: OrderOutcomeEnvelope | EventEnvelope): Promise<void> =>
  produce(producer, event, (event.data as { orderUuid: string }).orderUuid);
