import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { DeliveryView, toDeliveryView } from './delivery.view';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

// The merchant's delivery log, newest first.
@Injectable()
export class ListDeliveriesUseCase {
  constructor(private readonly dataSource: DataSource) {}

  async execute(
    merchantId: string,
    page: { limit: number; offset: number },
  ): Promise<{ items: DeliveryView[]; total: number }> {
    const [rows, total] = await this.dataSource.getRepository(WebhookDeliveryEntity).findAndCount({
      where: { merchantId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items: rows.map(toDeliveryView), total };
  }
}
