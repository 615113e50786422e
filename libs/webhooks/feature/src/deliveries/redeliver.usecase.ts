import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound, unprocessable } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { WEBHOOKS_SCHEMA } from '../config';

import { DeliveryDispatcher } from '../dispatch/delivery-dispatcher';
import { WebhookEndpointEntity } from '../endpoints/webhook-endpoint.entity';
import { lockMerchant } from '../persistence/merchant-lock';
import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

// Manual redelivery: the same body and event id, attempted now, with a fresh retry window.
@Injectable()
export class RedeliverUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly dispatcher: DeliveryDispatcher,
  ) {}

  // With an actor (an operator through the admin API) the redelivery is recorded in the audit log.
  async execute(merchantId: string, deliveryId: string, actor?: AdminActor): Promise<DeliveryView> {
    const view = await this.dataSource.transaction(async (manager) => {
      await lockMerchant(manager, merchantId, 'exclusive');
      const deliveries = manager.getRepository(WebhookDeliveryEntity);
      const delivery = await deliveries.findOne({
        where: { id: deliveryId, merchantId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!delivery) throw notFound('no such webhook delivery');
      const endpoint = await manager.getRepository(WebhookEndpointEntity).findOne({ where: { merchantId } });
      if (!endpoint) throw unprocessable('no webhook URL is registered; set one with PUT /merchant/webhook');
      if (endpoint.disabledAt) {
        throw unprocessable(
          'the webhook endpoint is disabled (it answered 410 Gone); set the URL again to re-enable it',
        );
      }
      await manager.query(
        `UPDATE "webhooks"."deliveries" SET status = 'PENDING', next_attempt_at = now(), retry_from = now() WHERE id = $1`,
        [deliveryId],
      );
      if (actor)
        await recordAdminAction(manager, WEBHOOKS_SCHEMA, actor, {
          action: 'webhook-delivery.redeliver',
          target: deliveryId,
          before: { merchantId, status: delivery.status },
          after: { status: 'PENDING' },
        });
      return toDeliveryView(await deliveries.findOneByOrFail({ id: deliveryId }));
    });
    this.dispatcher.nudge();
    return view;
  }
}
