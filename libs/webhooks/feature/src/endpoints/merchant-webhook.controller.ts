import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  ParseUUIDPipe,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import { badRequest, notFound, Page, Paginated, PaginationQuery } from '@onramp/http';
import { ApiMerchantAuth } from '@onramp/openapi';

import { DeliveryView } from '../deliveries/delivery.view';
import { ListDeliveriesUseCase } from '../deliveries/list-deliveries.usecase';
import { RedeliverUseCase } from '../deliveries/redeliver.usecase';
import {
  ApiGetWebhook,
  ApiListDeliveries,
  ApiRedeliver,
  ApiRotateWebhookSecret,
  ApiSetWebhookUrl,
} from './merchant-webhook.openapi';
import { RotateWebhookSecretUseCase } from './rotate-webhook-secret.usecase';
import { SetWebhookUrlDto } from './set-webhook-url.dto';
import { SetWebhookUrlResult, SetWebhookUrlUseCase } from './set-webhook-url.usecase';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { toEndpointView, WebhookEndpointView } from './webhook-endpoint.view';

@Controller('merchant/webhook')
@UseGuards(MerchantAuthGuard)
@ApiTags('Webhooks')
@ApiMerchantAuth()
export class MerchantWebhookController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly setUrl: SetWebhookUrlUseCase,
    private readonly rotateSecret: RotateWebhookSecretUseCase,
    private readonly listDeliveries: ListDeliveriesUseCase,
    private readonly redeliver: RedeliverUseCase,
  ) {}

  @Put()
  @HttpCode(200)
  @ApiSetWebhookUrl()
  put(@CurrentMerchant() merchantId: string, @Body() dto: SetWebhookUrlDto): Promise<SetWebhookUrlResult> {
    return this.setUrl.execute(merchantId, dto.url);
  }

  @Get()
  @ApiGetWebhook()
  async get(@CurrentMerchant() merchantId: string): Promise<WebhookEndpointView> {
    const endpoint = await this.endpoints.find(this.dataSource.manager, merchantId);
    if (!endpoint) throw notFound('no webhook endpoint is registered');
    return toEndpointView(endpoint);
  }

  @Post('rotate-secret')
  @HttpCode(200)
  @ApiRotateWebhookSecret()
  rotate(@CurrentMerchant() merchantId: string): Promise<{ url: string; secret: string }> {
    return this.rotateSecret.execute(merchantId);
  }

  @Get('deliveries')
  @Paginated()
  @ApiListDeliveries()
  deliveries(
    @CurrentMerchant() merchantId: string,
    @Query() page: PaginationQuery,
  ): Promise<Page<DeliveryView>> {
    return this.listDeliveries.execute(merchantId, page);
  }

  @Post('deliveries/:id/redeliver')
  @HttpCode(202)
  @ApiRedeliver()
  redeliverOne(
    @CurrentMerchant() merchantId: string,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => badRequest('delivery id must be a UUID') }))
    id: string,
  ): Promise<DeliveryView> {
    return this.redeliver.execute(merchantId, id);
  }
}
