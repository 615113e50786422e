import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OrderStatusHistoryEntity } from './order-status-history.entity';
import { OrderResponse, presentOrder } from './order.presenter';
import { OrdersRepository } from './orders.repository';

// The read side of the merchant API, outside any transaction. Always scoped by merchant: another
// merchant's order is indistinguishable from none.
@Injectable()
export class OrdersQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
  ) {}

  async getOne(merchantId: string, uuid: string): Promise<OrderResponse | null> {
    const order = await this.orders.findForMerchant(this.dataSource.manager, merchantId, uuid);
    return order ? presentOrder(order) : null;
  }

  async list(
    merchantId: string,
    limit: number,
    offset: number,
  ): Promise<{ items: OrderResponse[]; total: number }> {
    const { orders, total } = await this.orders.listPage(
      this.dataSource.manager,
      { merchantId },
      { limit, offset },
    );
    return { items: orders.map(presentOrder), total };
  }

  // Every status the order took, oldest first; null when the merchant has no such order.
  async statusHistory(merchantId: string, uuid: string): Promise<OrderStatusHistoryEntity[] | null> {
    const db = this.dataSource.manager;
    if (!(await this.orders.existsForMerchant(db, merchantId, uuid))) return null;
    return this.orders.statusHistory(db, uuid);
  }
}
