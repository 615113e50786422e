import { IsIn, IsOptional } from 'class-validator';

import { MerchantFilteredPageQuery } from '@onramp/http';
import { DeliveryStatus, DeliveryStatuses } from '@onramp/webhooks-domain';

export class AdminDeliveriesQuery extends MerchantFilteredPageQuery {
  @IsOptional()
  @IsIn(DeliveryStatuses, { message: `status must be one of ${DeliveryStatuses.join(', ')}` })
  status?: DeliveryStatus;
}
