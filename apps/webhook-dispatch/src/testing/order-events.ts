import { randomUUID } from 'node:crypto';

import { Kafka, logLevel, Producer } from 'kafkajs';

import {
  CURRENT_EVENT_VERSION,
  EventEnvelope,
  EventHeaders,
  OrderCompletedV1,
  OrderFailedV1,
  Topics,
} from '@onramp/contracts';
import { newTraceparent, uuidv7 } from '@onramp/messaging';

export type OrderOutcomeEnvelope =
  | EventEnvelope<typeof Topics.OrderCompleted, OrderCompletedV1>
  | EventEnvelope<typeof Topics.OrderFailed, OrderFailedV1>;

export function testProducer(): Producer {
  const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
  return new Kafka({
    clientId: `webhook-test-${randomUUID()}`,
    brokers,
    logLevel: logLevel.NOTHING,
  }).producer();
}

// As the orders service would emit it: the data is the docs/api.md webhook body.
export function orderCompleted(
  merchantId: string,
  overrides: Partial<OrderCompletedV1> = {},
): OrderOutcomeEnvelope {
  const data: OrderCompletedV1 = {
    event: 'order.completed',
    status: 'COMPLETED',
    orderUuid: randomUUID(),
    userUuid: randomUUID(),
    amount: 100.5,
    payedAmount: 100.5,
    payerAccountHolderName: 'Jürgen Müller',
    currency: 'EUR',
    fxRateBase: '1.0812',
    fxRateEffective: '1.0704',
    fxRateUpdatedAt: '2025-06-01T10:00:00.000Z',
    sentTokenAmount: 107.5752,
    sentTokenCurrency: 'USDC',
    reference: 'RF18539007547034',
    recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    transactionHash: `0x${'ab'.repeat(32)}`,
    message: 'Order completed',
    timestamp: new Date().toISOString(),
    ...overrides,
  };
  return {
    id: uuidv7(),
    type: Topics.OrderCompleted,
    version: CURRENT_EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    merchantId,
    data,
  };
}

export function orderFailed(merchantId: string): OrderOutcomeEnvelope {
  const data: OrderFailedV1 = {
    event: 'order.failed',
    status: 'FAILED',
    orderUuid: randomUUID(),
    userUuid: randomUUID(),
    amount: 20,
    payedAmount: 0,
    sentTokenAmount: 0,
    sentTokenCurrency: null,
    currency: 'EUR',
    reference: 'RF71EXPIRED01',
    recipientAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    transactionHash: '',
    message: 'payment rejected by the bank',
    timestamp: new Date().toISOString(),
  };
  return {
    id: uuidv7(),
    type: Topics.OrderFailed,
    version: CURRENT_EVENT_VERSION,
    occurredAt: new Date().toISOString(),
    merchantId,
    data,
  };
}

// Publishes like the orders outbox relay: key = order uuid, the envelope as JSON, event headers.
export async function publish(producer: Producer, event: OrderOutcomeEnvelope): Promise<void> {
  await producer.send({
    topic: event.type,
    acks: -1,
    messages: [
      {
        key: event.data.orderUuid,
        value: JSON.stringify(event),
        headers: {
          [EventHeaders.Id]: event.id,
          [EventHeaders.Type]: event.type,
          [EventHeaders.Version]: String(event.version),
          [EventHeaders.TraceParent]: newTraceparent(),
        },
      },
    ],
  });
}
