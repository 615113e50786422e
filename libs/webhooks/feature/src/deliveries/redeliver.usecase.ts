import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound, unprocessable } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { WEBHOOKS_SCHEMA } from '../config';

import { DeliveryDispatcher } from '../dispatch/delivery-dispatcher';
import { WebhookEndpointsRepository } from '../endpoints/webhook-endpoints.repository';
import { lockMerchant } from '../persistence/merchant-lock.repository';
import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// Manual redelivery: the same body and event id, attempted now, with a fresh retry window.
@Injectable()
export class RedeliverUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  // With an actor (an operator through the admin API) the redelivery is recorded in the audit log.
  async execute(merchantId: string, deliveryId: string, actor?: AdminActor): Promise<DeliveryView> {
    const view = await this.dataSource.transaction(async (manager) => {
      await lockMerchant(manager, merchantId, 'exclusive');
      const delivery = await this.deliveries.findOfMerchantForUpdate(manager, deliveryId, merchantId);
      if (!delivery) throw notFound('no such webhook delivery');
      const endpoint = await this.endpoints.find(manager, merchantId);
      if (!endpoint) throw unprocessable('no webhook URL is registered; set one with PUT /merchant/webhook');
      if (endpoint.disabledAt) {
        throw unprocessable(
          'the webhook endpoint is disabled (it answered 410 Gone); set the URL again to re-enable it',
        );
      }
      await this.deliveries.restart(manager, deliveryId);
      if (actor)
        await recordAdminAction(manager, WEBHOOKS_SCHEMA, actor, {
          action: 'webhook-delivery.redeliver',
          target: deliveryId,
          before: { merchantId, status: delivery.status },
          after: { status: 'PENDING' },
        });
      const restarted = await this.deliveries.find(manager, deliveryId);
      if (!restarted) throw new Error(`webhook delivery ${deliveryId} vanished inside its transaction`);
      return toDeliveryView(restarted);
    });
    this.dispatcher.nudge();
    return view;
  }
}
