import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { FastifyReply } from 'fastify';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { badRequest, Page, Paginated, PaginationQuery } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';

import { CreatedMerchant, CreateMerchantUseCase } from '../merchants/create-merchant.usecase';
import { ListMerchantsUseCase, MerchantSummary } from '../merchants/list-merchants.usecase';
import { RotateMerchantSecretUseCase } from '../merchants/rotate-merchant-secret.usecase';
import { CreateMerchantDto } from './create-merchant.dto';

@Controller('admin/merchants')
@UseGuards(AdminGuard)
export class AdminMerchantsController {
  constructor(
    private readonly createMerchant: CreateMerchantUseCase,
    private readonly listMerchants: ListMerchantsUseCase,
    private readonly rotateSecret: RotateMerchantSecretUseCase,
  ) {}

  @Post()
  @HttpCode(201)
  create(
    @Body() dto: CreateMerchantDto,
    @CurrentAdminActor() actor: AdminActor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedMerchant> {
    void reply.header('Cache-Control', 'no-store');
    return this.createMerchant.execute({ name: dto.name }, actor);
  }

  @Get()
  @Paginated()
  list(@Query() page: PaginationQuery): Promise<Page<MerchantSummary>> {
    return this.listMerchants.execute(page);
  }

  @Post(':merchantId/rotate-secret')
  @HttpCode(200)
  rotate(
    @Param(
      'merchantId',
      new ParseUUIDPipe({ exceptionFactory: () => badRequest('merchantId must be a UUID') }),
    )
    merchantId: string,
    @CurrentAdminActor() actor: AdminActor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ merchantId: string; merchantSecret: string }> {
    void reply.header('Cache-Control', 'no-store');
    return this.rotateSecret.execute(merchantId.toLowerCase(), actor);
  }
}
