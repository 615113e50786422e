import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { DeliveryStatuses, DeliveryStatus } from '@onramp/webhooks-domain';

import { DeliveryView } from './delivery.view';

// The documented delivery log entry (delivery.view.ts builds it); `implements` keeps both in step.
@ApiSchema({
  name: 'WebhookDelivery',
  description: 'One event on its way to the merchant, with its attempts so far.',
})
export class DeliveryResponse implements DeliveryView {
  @ApiProperty({ description: 'Id of the delivery (path parameter of redeliver).', format: 'uuid' })
  id!: string;

  @ApiProperty({
    description: 'Id of the event: the `X-Webhook-Id` / `webhook-id` header, the same on every attempt.',
    format: 'uuid',
  })
  eventId!: string;

  @ApiProperty({ enum: ['order.completed', 'order.failed'], example: 'order.completed' })
  eventType!: string;

  @ApiProperty({ format: 'uuid' })
  orderUuid!: string;

  @ApiProperty({
    description:
      '`PENDING`: waiting for its next attempt. `NO_ENDPOINT`: no webhook URL yet (sent once one is set). `DISABLED`: the endpoint answered 410 and waits for a new URL. `DELIVERED`: a 2xx came back. `DEAD`: retries ran out (after 72 hours); redeliver by hand.',
    enum: DeliveryStatuses,
    example: 'DELIVERED',
  })
  status!: DeliveryStatus;

  @ApiProperty({ description: 'Attempts made so far.', type: 'integer', example: 1 })
  attempts!: number;

  @ApiProperty({
    description: 'HTTP status of the last attempt, if one got an answer.',
    type: 'integer',
    nullable: true,
    example: 200,
  })
  lastStatusCode!: number | null;

  @ApiProperty({
    description: 'Error of the last attempt, if it failed.',
    type: 'string',
    nullable: true,
    example: null,
  })
  lastError!: string | null;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:40:00.000Z' })
  createdAt!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2025-01-15T10:40:01.000Z' })
  deliveredAt!: string | null;

  @ApiProperty({
    description: 'When the next attempt is due; only for `PENDING`.',
    type: 'string',
    format: 'date-time',
    nullable: true,
    example: null,
  })
  nextAttemptAt!: string | null;
}
