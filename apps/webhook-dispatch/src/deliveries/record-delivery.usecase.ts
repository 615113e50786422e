import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, OrderCompletedV1, OrderFailedV1, Topics } from '@onramp/contracts';
import { uuidv7 } from '@onramp/messaging';
import { DeliveryStatus, serializeWebhookBody } from '@onramp/webhooks-domain';

import { lockMerchant } from '../persistence/merchant-lock';
import { queryRows } from '../persistence/query-rows';

export type OrderOutcomeEvent =
  | EventEnvelope<typeof Topics.OrderCompleted, OrderCompletedV1>
  | EventEnvelope<typeof Topics.OrderFailed, OrderFailedV1>;

// One delivery per event id (a redelivered event is a no-op). The body is fixed now, exactly as the
// event carries it: the event data IS the docs/api.md webhook body; nothing is added, and the keys are
// put back in the spec's order (JSONB on the way here does not keep it).
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
      [
        uuidv7(),
        event.id,
        event.merchantId,
        event.type,
        event.data.orderUuid,
        serializeWebhookBody(event.data as unknown as Record<string, unknown>),
        status,
      ],
    );
  }
}
