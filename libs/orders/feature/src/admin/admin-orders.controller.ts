import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';

import { AdminGuard } from '@onramp/auth';
import { notFound, Page, Paginated, uuidParam } from '@onramp/http';

import { AdminOrderDetails, AdminOrderResponse, AdminOrdersQueries } from '../orders/admin-orders.queries';
import { AdminOrdersQuery } from './admin-orders.query';

// Operators only (the gateway serves /admin/* on its loopback listener): read-only, any merchant.
@Controller('admin/orders')
@UseGuards(AdminGuard)
export class AdminOrdersController {
  constructor(private readonly queries: AdminOrdersQueries) {}

  @Get()
  @Paginated()
  list(@Query() query: AdminOrdersQuery): Promise<Page<AdminOrderResponse>> {
    return this.queries.list({ merchantId: query.merchantId, status: query.status }, query);
  }

  @Get(':uuid')
  async getOne(@Param('uuid', uuidParam('uuid')) uuid: string): Promise<AdminOrderDetails> {
    const order = await this.queries.getOne(uuid.toLowerCase());
    if (!order) throw notFound('order not found');
    return order;
  }
}
