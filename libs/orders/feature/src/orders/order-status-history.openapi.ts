import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema } from '@nestjs/swagger';

import { ApiProblemResponse, ApiUuidParamProblem, ApiUuidPathParam } from '@onramp/openapi';
import { ORDER_STATUSES, OrderStatus } from '@onramp/orders-domain';

export interface MerchantStatusChange {
  from: OrderStatus | null;
  to: OrderStatus;
  reason: string | null;
  at: string;
}

@ApiSchema({ name: 'OrderStatusChange', description: 'One status change of an order.' })
export class OrderStatusChangeResponse implements MerchantStatusChange {
  @ApiProperty({
    enum: ORDER_STATUSES,
    nullable: true,
    description: 'null for the first entry.',
    example: 'CREATED',
  })
  from!: OrderStatus | null;

  @ApiProperty({ enum: ORDER_STATUSES, example: 'COMPLETED' })
  to!: OrderStatus;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Why, when the platform recorded a reason.',
    example: null,
  })
  reason!: string | null;

  @ApiProperty({ format: 'date-time', example: '2025-01-15T10:00:01.000Z' })
  at!: string;
}

export const ApiGetStatusHistory = () =>
  applyDecorators(
    ApiOperation({
      operationId: 'getOrderStatusHistory',
      summary: 'Get the status history of an order',
      description: 'Every status the order took, oldest first.',
    }),
    ApiUuidPathParam('uuid', 'The order `uuid` from the create-order response.'),
    ApiOkResponse({ description: 'The status changes.', type: OrderStatusChangeResponse, isArray: true }),
    ApiUuidParamProblem('uuid'),
    ApiProblemResponse(404, 'No order with this uuid belongs to the calling merchant.', {
      detail: 'order not found',
    }),
  );
