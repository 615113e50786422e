import { Controller, Get, Param, Query, Req, Res, UseGuards } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';

import { AdminGuard } from '@onramp/auth';
import { notFound, setPaginationHeaders, uuidParam } from '@onramp/http';

import { AdminOrderDetails, AdminOrderResponse, AdminOrdersQueries } from '../orders/admin-orders.queries';
import { AdminOrdersQuery } from './admin-orders.query';

// Operators only (the gateway serves /admin/* on its loopback listener): read-only, any merchant.
@Controller('admin/orders')
@UseGuards(AdminGuard)
export class AdminOrdersController {
  constructor(private readonly queries: AdminOrdersQueries) {}

  @Get()
  async list(
    @Query() query: AdminOrdersQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AdminOrderResponse[]> {
    const filter = { merchantId: query.merchantId, status: query.status };
    const { items, total } = await this.queries.list(filter, query);
    setPaginationHeaders(req, reply, { total, limit: query.limit, offset: query.offset });
    return items;
  }

  @Get(':uuid')
  async getOne(@Param('uuid', uuidParam('uuid')) uuid: string): Promise<AdminOrderDetails> {
    const order = await this.queries.getOne(uuid.toLowerCase());
    if (!order) throw notFound('order not found');
    return order;
  }
}
