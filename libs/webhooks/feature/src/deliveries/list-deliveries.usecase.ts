import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Page, PageRequest } from '@onramp/http';

import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// The merchant's delivery log, newest first.
@Injectable()
export class ListDeliveriesUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly deliveries: WebhookDeliveriesRepository,
  ) {}

  async execute(merchantId: string, page: PageRequest): Promise<Page<DeliveryView>> {
    const { rows, total } = await this.deliveries.page(this.dataSource.manager, { merchantId }, page);
    return { items: rows.map(toDeliveryView), total };
  }
}
