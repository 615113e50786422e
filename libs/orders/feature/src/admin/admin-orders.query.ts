import { IsIn, IsOptional } from 'class-validator';

import { MerchantFilteredPageQuery } from '@onramp/http';
import { ORDER_STATUSES, OrderStatus } from '@onramp/orders-domain';

export class AdminOrdersQuery extends MerchantFilteredPageQuery {
  @IsOptional()
  @IsIn(ORDER_STATUSES, { message: `status must be one of ${ORDER_STATUSES.join(', ')}` })
  status?: OrderStatus;
}
