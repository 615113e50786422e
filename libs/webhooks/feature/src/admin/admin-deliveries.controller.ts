import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UseGuards } from '@nestjs/common';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { AdminActor } from '@onramp/persistence';
import { badRequest, notFound, Page, Paginated } from '@onramp/http';

import { RedeliverUseCase } from '../deliveries/redeliver.usecase';
import { AdminDeliveryView, SearchDeliveriesUseCase } from '../deliveries/search-deliveries.usecase';
import { AdminDeliveriesQuery } from './admin-deliveries.query';

// Operators only (the gateway serves /admin/* on its loopback listener): any merchant's deliveries.
@Controller('admin/webhook-deliveries')
@UseGuards(AdminGuard)
export class AdminDeliveriesController {
  constructor(
    private readonly search: SearchDeliveriesUseCase,
    private readonly redeliver: RedeliverUseCase,
  ) {}

  @Get()
  @Paginated()
  list(@Query() query: AdminDeliveriesQuery): Promise<Page<AdminDeliveryView>> {
    return this.search.execute({ merchantId: query.merchantId, status: query.status }, query);
  }

  // The merchant's redelivery, on the merchant's behalf: same checks, same 202/404/422.
  @Post(':id/redeliver')
  @HttpCode(202)
  async redeliverOne(
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => badRequest('delivery id must be a UUID') }))
    id: string,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<AdminDeliveryView> {
    const merchantId = await this.search.merchantOf(id);
    if (!merchantId) throw notFound('no such webhook delivery');
    return { ...(await this.redeliver.execute(merchantId, id, actor)), merchantId };
  }
}
