import { IsIn, IsOptional, IsUUID } from 'class-validator';

import { PaginationQuery } from '@onramp/http';
import { ORDER_STATUSES, OrderStatus } from '@onramp/orders-domain';

export class AdminOrdersQuery extends PaginationQuery {
  @IsOptional()
  @IsUUID('all', { message: 'merchantId must be a UUID' })
  merchantId?: string;

  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;
}
