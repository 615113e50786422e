import { DeliveryStatus } from '@onramp/webhooks-domain';

import { WebhookDeliveryEntity } from './webhook-delivery.entity';

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  orderUuid: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  nextAttemptAt: string | null;
}

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
