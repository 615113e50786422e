import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { DeliveryStatus } from '@onramp/webhooks-domain';

import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

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
  constructor(private readonly dataSource: DataSource) {}

  async execute(
    filter: DeliveryFilter,
    page: { limit: number; offset: number },
  ): Promise<{ items: AdminDeliveryView[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(WebhookDeliveryEntity).findAndCount({
      where: {
        ...(filter.merchantId ? { merchantId: filter.merchantId.toLowerCase() } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items: rows.map((d) => ({ ...toDeliveryView(d), merchantId: d.merchantId })), total };
  }

  // A delivery's merchant never changes, so reading it outside the redelivery transaction is safe.
  async merchantOf(deliveryId: string): Promise<string | undefined> {
    const row = await this.dataSource
      .getRepository(WebhookDeliveryEntity)
      .findOne({ where: { id: deliveryId }, select: { id: true, merchantId: true } });
    return row?.merchantId;
  }
}
