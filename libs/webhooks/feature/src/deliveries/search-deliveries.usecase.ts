import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Page, PageRequest } from '@onramp/http';

import { DeliveryStatus } from '@onramp/webhooks-domain';

import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

export interface AdminDeliveryView extends DeliveryView {
  merchantId: string;
}

export interface DeliveryFilter {
  merchantId?: string;
  status?: DeliveryStatus;
}

// The operator's view of the delivery log: every merchant, optionally filtered, newest first.
@Injectable()
export class SearchDeliveriesUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(filter: DeliveryFilter, page: PageRequest): Promise<Page<AdminDeliveryView>> {
    const { rows, total } = await this.deliveries.page(
      this.dataSource.manager,
      { merchantId: filter.merchantId?.toLowerCase(), status: filter.status },
      page,
    );
    return { items: rows.map((d) => ({ ...toDeliveryView(d), merchantId: d.merchantId })), total };
  }

  // A delivery's merchant never changes, so reading it outside the redelivery transaction is safe.
  async merchantOf(deliveryId: string): Promise<string | undefined> {
    return this.deliveries.merchantOf(this.dataSource.manager, deliveryId);
  }
}
