import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { uuidv7 } from '@onramp/messaging';
import { DeliveryStatus } from '@onramp/webhooks-domain';

import { lockMerchant } from '../persistence/merchant-lock';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { OrderOutcomeEvent, webhookBodyOf } from './order-webhook-body.presenter';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// One delivery per event id (a redelivered event is a no-op). The body is presented and fixed now:
// every attempt and every manual redelivery sends these same bytes.
@Injectable()
export class RecordDeliveryUseCase {
  constructor(
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(manager: EntityManager, event: OrderOutcomeEvent): Promise<void> {
    await lockMerchant(manager, event.merchantId, 'shared');
    const disabled = await this.endpoints.isDisabled(manager, event.merchantId);
    const status: DeliveryStatus = disabled === undefined ? 'NO_ENDPOINT' : disabled ? 'DISABLED' : 'PENDING';
    await this.deliveries.insertOnce(manager, {
      id: uuidv7(),
      eventId: event.id,
      merchantId: event.merchantId,
      eventType: event.type,
      orderUuid: event.data.orderUuid,
      body: webhookBodyOf(event),
      status,
    });
  }
}
