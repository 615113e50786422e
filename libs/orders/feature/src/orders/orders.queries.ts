import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { notFound, Page, PageRequest } from '@onramp/http';

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

  // 404 for none, or another merchant's.
  async getOne(merchantId: string, uuid: string): Promise<OrderResponse> {
    const order = await this.orders.findForMerchant(this.dataSource.manager, merchantId, uuid);
    if (!order) throw notFound('order not found');
    return presentOrder(order);
  }

  async list(merchantId: string, page: PageRequest): Promise<Page<OrderResponse>> {
    const { orders, total } = await this.orders.listPage(this.dataSource.manager, { merchantId }, page);
    return { items: orders.map(presentOrder), total };
  }

  // Every status the order took, oldest first; null when the merchant has no such order.
  async statusHistory(merchantId: string, uuid: string): Promise<OrderStatusHistoryEntity[] | null> {
    const db = this.dataSource.manager;
    if (!(await this.orders.existsForMerchant(db, merchantId, uuid))) return null;
    return this.orders.statusHistory(db, uuid);
  }
}
