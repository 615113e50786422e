import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OrderEntity } from './order.entity';
import { OrderResponse, presentOrder } from './order.presenter';

// Always scoped by merchant: another merchant's order is indistinguishable from none.
@Injectable()
export class OrdersQueries {
  constructor(private readonly dataSource: DataSource) {}

  async getOne(merchantId: string, uuid: string): Promise<OrderResponse | null> {
    const order = await this.dataSource.getRepository(OrderEntity).findOneBy({ merchantId, uuid });
    return order ? presentOrder(order) : null;
  }

  async list(
    merchantId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: OrderResponse[]; total: number }> {
    const [orders, total] = await this.dataSource.getRepository(OrderEntity).findAndCount({
      where: { merchantId },
      order: { createdAt: 'DESC', uuid: 'DESC' },
      take: limit,
      skip: offset,
    });
    return { items: orders.map(presentOrder), total };
  }
}
