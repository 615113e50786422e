import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OrderStatus } from '@onramp/orders-domain';

import { OrderStatusHistoryEntity } from './order-status-history.entity';
import { OrderEntity } from './order.entity';
import { OrderResponse, presentOrder } from './order.presenter';

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
  constructor(private readonly dataSource: DataSource) {}

  async getOne(uuid: string): Promise<AdminOrderDetails | null> {
    const order = await this.dataSource.getRepository(OrderEntity).findOneBy({ uuid });
    if (!order) return null;
    const history = await this.dataSource.getRepository(OrderStatusHistoryEntity).find({
      where: { orderUuid: uuid },
      order: { id: 'ASC' },
    });
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
    page: { limit: number; offset: number },
  ): Promise<{ items: AdminOrderResponse[]; total: number }> {
    const [orders, total] = await this.dataSource.getRepository(OrderEntity).findAndCount({
      where: {
        ...(filter.merchantId ? { merchantId: filter.merchantId.toLowerCase() } : {}),
        ...(filter.status ? { status: filter.status } : {}),
      },
      order: { createdAt: 'DESC', uuid: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    return { items: orders.map(presentAdminOrder), total };
  }
}

function presentAdminOrder(order: OrderEntity): AdminOrderResponse {
  return { ...presentOrder(order), merchantId: order.merchantId };
}
