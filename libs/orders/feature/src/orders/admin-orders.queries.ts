import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Page, PageRequest } from '@onramp/http';
import { OrderStatus } from '@onramp/orders-domain';

import { OrderEntity } from './order.entity';
import { OrderResponse, presentOrder } from './order.presenter';
import { OrdersRepository } from './orders.repository';

export interface StatusChange {
  from: OrderStatus | null;
  to: OrderStatus;
  reason: string | null;
  eventId: string | null;
  at: string;
}

export interface AdminOrderResponse extends OrderResponse {
  merchantId: string;
}

export interface AdminOrderDetails extends AdminOrderResponse {
  statusHistory: StatusChange[];
}

// The operator's reads: any merchant's orders (the merchant API scopes every read by merchant).
@Injectable()
export class AdminOrdersQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersRepository,
  ) {}

  async getOne(uuid: string): Promise<AdminOrderDetails | null> {
    const order = await this.orders.find(this.dataSource.manager, uuid);
    if (!order) return null;
    const history = await this.orders.statusHistory(this.dataSource.manager, uuid);
    return {
      ...presentAdminOrder(order),
      statusHistory: history.map((h) => ({
        from: h.fromStatus,
        to: h.toStatus,
        reason: h.reason,
        eventId: h.eventId,
        at: h.at.toISOString(),
      })),
    };
  }

  async list(
    filter: { merchantId?: string; status?: OrderStatus },
    page: PageRequest,
  ): Promise<Page<AdminOrderResponse>> {
    const { orders, total } = await this.orders.listPage(
      this.dataSource.manager,
      {
        ...(filter.merchantId ? { merchantId: filter.merchantId.toLowerCase() } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      page,
    );
    return { items: orders.map(presentAdminOrder), total };
  }
}

function presentAdminOrder(order: OrderEntity): AdminOrderResponse {
  return { ...presentOrder(order), merchantId: order.merchantId };
}
