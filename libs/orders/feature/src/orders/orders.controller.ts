import { Body, Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FastifyReply } from 'fastify';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import {
  conflict,
  IdempotentInput,
  Page,
  Paginated,
  PaginationQuery,
  StoredReply,
  StoredResponseReply,
  uuidParam,
} from '@onramp/http';
import { encodeQr, qrToSvg } from '@onramp/sepa';
import { ApiMerchantAuth } from '@onramp/openapi';

import { CreateOrderUseCase } from './create-order.usecase';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderResponse } from './order.presenter';
import { ApiCreateOrder, ApiGetPaymentDetails, ApiGetPaymentQr, ApiListOrders } from './orders.openapi';
import { OrdersQueries } from './orders.queries';

@Controller('orders')
@UseGuards(MerchantAuthGuard)
@ApiTags('Orders')
@ApiMerchantAuth()
export class OrdersController {
  constructor(
    private readonly createOrder: CreateOrderUseCase,
    private readonly queries: OrdersQueries,
  ) {}

  @Post('create')
  @HttpCode(201)
  @ApiCreateOrder()
  async create(
    @CurrentMerchant() merchantId: string,
    @Body() input: CreateOrderDto,
    @IdempotentInput() request: IdempotentInput,
    @StoredReply() reply: StoredResponseReply,
  ): Promise<unknown> {
    return reply(await this.createOrder.execute({ merchantId, input, ...request }));
  }

  @Get()
  @Paginated()
  @ApiListOrders()
  list(@CurrentMerchant() merchantId: string, @Query() page: PaginationQuery): Promise<Page<OrderResponse>> {
    return this.queries.list(merchantId, page);
  }

  @Get(':uuid/payment-details')
  @ApiGetPaymentDetails()
  paymentDetails(
    @CurrentMerchant() merchantId: string,
    @Param('uuid', uuidParam('uuid')) uuid: string,
  ): Promise<OrderResponse> {
    return this.queries.getOne(merchantId, uuid);
  }

  @Get(':uuid/payment-qr')
  @ApiGetPaymentQr()
  async paymentQr(
    @CurrentMerchant() merchantId: string,
    @Param('uuid', uuidParam('uuid')) uuid: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const order = await this.queries.getOne(merchantId, uuid);
    if (!order.epcQrPayload) throw conflict(`order is ${order.status}: it takes no payment`);
    void reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', 'private, no-store');
    return qrToSvg(encodeQr(order.epcQrPayload), {
      title: `Pay ${order.amount} EUR, reference ${order.reference}`,
    });
  }
}
