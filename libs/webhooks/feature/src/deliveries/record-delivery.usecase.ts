import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { uuidv7 } from '@onramp/messaging';
import { DeliveryStatus } from '@onramp/webhooks-domain';

import { lockMerchant } from '../persistence/merchant-lock';
import { queryRows } from '../persistence/query-rows';
import { OrderOutcomeEvent, webhookBodyOf } from './order-webhook-body.presenter';

// One delivery per event id (a redelivered event is a no-op). The body is presented and fixed now:
// every attempt and every manual redelivery sends these same bytes.
@Injectable()
export class RecordDeliveryUseCase {
  async execute(manager: EntityManager, event: OrderOutcomeEvent): Promise<void> {
    await lockMerchant(manager, event.merchantId, 'shared');
    const [endpoint] = await queryRows<{ disabled: boolean }>(
      manager,
      `SELECT disabled_at IS NOT NULL AS disabled FROM "webhooks"."endpoints" WHERE merchant_id = $1`,
      [event.merchantId],
    );
    const status: DeliveryStatus = !endpoint ? 'NO_ENDPOINT' : endpoint.disabled ? 'DISABLED' : 'PENDING';
    await manager.query(
      `INSERT INTO "webhooks"."deliveries" (id, event_id, merchant_id, event_type, order_uuid, body, status, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $7::text = 'PENDING' THEN now() END)
       ON CONFLICT (event_id) DO NOTHING`,
      [uuidv7(), event.id, event.merchantId, event.type, event.data.orderUuid, webhookBodyOf(event), status],
    );
  }
}
