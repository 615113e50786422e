import { IsIn, IsOptional, IsUUID } from 'class-validator';

import { PaginationQuery } from '@onramp/http';
import { DeliveryStatus, DeliveryStatuses } from '@onramp/webhooks-domain';

export class AdminDeliveriesQuery extends PaginationQuery {
  @IsOptional()
  @IsUUID('all', { message: 'merchantId must be a UUID' })
  merchantId?: string;

  @IsOptional()
  @IsIn(DeliveryStatuses, { message: `status must be one of ${DeliveryStatuses.join(', ')}` })
  status?: DeliveryStatus;
}
