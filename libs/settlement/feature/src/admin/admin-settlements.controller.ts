import {
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { IsIn } from 'class-validator';
import { FastifyReply, FastifyRequest } from 'fastify';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { badRequest, PaginationQuery, setPaginationHeaders } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';

import { HeldSettlementsService, HeldSettlementView } from './held-settlements.service';

// Required, and HELD only for now: an unfiltered list would later mean every state.
export class AdminSettlementsQuery extends PaginationQuery {
  @IsIn(['HELD'], { message: 'state must be HELD' })
  state!: 'HELD';
}

const orderUuidParam = new ParseUUIDPipe({
  exceptionFactory: () =>
    badRequest('orderUuid must be a UUID', [{ field: 'orderUuid', message: 'orderUuid must be a UUID' }]),
});

// Operators only (the gateway's admin listener forwards /admin/settlements* here): settlements HELD
// over a payout cap, and their release (scope `money`, checked by the gateway).
@Controller('admin/settlements')
@UseGuards(AdminGuard)
export class AdminSettlementsController {
  constructor(private readonly held: HeldSettlementsService) {}

  @Get()
  async list(
    @Query() query: AdminSettlementsQuery,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HeldSettlementView[]> {
    const { items, total } = await this.held.list(query);
    setPaginationHeaders(req, reply, { total, limit: query.limit, offset: query.offset });
    return items;
  }

  // Past its caps: back to PENDING, signed by the next pass of the worker.
  @Post(':orderUuid/release')
  @HttpCode(200)
  release(
    @Param('orderUuid', orderUuidParam) orderUuid: string,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<{ orderUuid: string; state: 'PENDING' }> {
    return this.held.release(orderUuid.toLowerCase(), actor);
  }
}
