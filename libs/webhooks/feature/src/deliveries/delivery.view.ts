import type { WebhookDelivery } from '@onramp/sdk';

import { WebhookDeliveryEntity } from './webhook-delivery.entity';

// A delivery as the SDK publishes it to merchants (it ships standalone, so it cannot import ours), its
// event type as stored: a view the SDK does not describe fails the typecheck here.
export type DeliveryView = Omit<WebhookDelivery, 'eventType'> & { eventType: string };

export function toDeliveryView(d: WebhookDeliveryEntity): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    eventType: d.eventType,
    orderUuid: d.orderUuid,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    // Only a waiting delivery has a next attempt.
    nextAttemptAt: d.status === 'PENDING' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
  };
}
