import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { IsIn } from 'class-validator';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { Page, Paginated, PaginationQuery, uuidParam } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';

import { HeldSettlementsService, HeldSettlementView } from './held-settlements.service';

// Required, and HELD only for now: an unfiltered list would later mean every state.
export class AdminSettlementsQuery extends PaginationQuery {
  @IsIn(['HELD'], { message: 'state must be HELD' })
  state!: 'HELD';
}

// Operators only (the gateway's admin listener forwards /admin/settlements* here): settlements HELD
// over a payout cap, and their release (scope `money`, checked by the gateway).
@Controller('admin/settlements')
@UseGuards(AdminGuard)
export class AdminSettlementsController {
  constructor(private readonly held: HeldSettlementsService) {}

  @Get()
  @Paginated()
  list(@Query() query: AdminSettlementsQuery): Promise<Page<HeldSettlementView>> {
    return this.held.list(query);
  }

  // Past its caps: back to PENDING, signed by the next pass of the worker.
  @Post(':orderUuid/release')
  @HttpCode(200)
  release(
    @Param('orderUuid', uuidParam('orderUuid')) orderUuid: string,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<{ orderUuid: string; state: 'PENDING' }> {
    return this.held.release(orderUuid.toLowerCase(), actor);
  }
}
