import { Controller, Get, Param, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import { notFound, uuidParam } from '@onramp/http';
import { ApiMerchantAuth } from '@onramp/openapi';

import { ApiGetStatusHistory, MerchantStatusChange } from './order-status-history.openapi';
import { OrdersQueries } from './orders.queries';

// GET /orders/{uuid}/status-history: every status the order took, oldest first (the dashboard's
// order timeline). The causing event ids stay internal; the operator's admin API shows them.
@Controller('orders')
@UseGuards(MerchantAuthGuard)
@ApiTags('Orders')
@ApiMerchantAuth()
export class OrderStatusHistoryController {
  constructor(private readonly queries: OrdersQueries) {}

  @Get(':uuid/status-history')
  @ApiGetStatusHistory()
  async history(
    @CurrentMerchant() merchantId: string,
    @Param('uuid', uuidParam('uuid')) uuid: string,
  ): Promise<MerchantStatusChange[]> {
    const rows = await this.queries.statusHistory(merchantId, uuid);
    if (!rows) throw notFound('order not found');
    return rows.map((h) => ({
      from: h.fromStatus,
      to: h.toStatus,
      reason: h.reason,
      at: h.at.toISOString(),
    }));
  }
}
