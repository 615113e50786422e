import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController, IdempotentRequests } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { systemClock } from '@onramp/orders-domain';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminOrdersController } from './admin/admin-orders.controller';
import {
  loadOrdersConfig,
  loadOrdersRuntime,
  ORDERS_CONFIG,
  ORDERS_SCHEMA,
  ordersConsumerName,
} from './config';
import { KycEventsHandler } from './events/kyc-events.handler';
import { CLOCK, OrderTransitions } from './events/order-transitions';
import { PaymentEventsHandler } from './events/payment-events.handler';
import { TransferEventsHandler } from './events/transfer-events.handler';
import { KycEligibility } from './kyc/kyc-eligibility';
import { KycServiceClient } from './kyc/kyc-service.client';
import { AdminOrdersQueries } from './orders/admin-orders.queries';
import { CreateOrderUseCase } from './orders/create-order.usecase';
import { OrderStatusHistoryController } from './orders/order-status-history.controller';
import { OrdersController } from './orders/orders.controller';
import { OrdersQueries } from './orders/orders.queries';
import { SERVICE_DATABASE } from './database';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadOrdersConfig().databaseUrl,
      ...SERVICE_DATABASE,
      ...loadOrdersRuntime().database,
    })),
    MessagingModule.forService({
      schema: ORDERS_SCHEMA,
      service: ordersConsumerName(),
      transport: () => loadOrdersRuntime().transport,
    }),
    MerchantAuthModule.forRoot(() => loadOrdersRuntime().merchantAuth),
    ServiceCallersModule.forRoot(() => loadOrdersRuntime().callers),
    MetricsModule.forRoot(() => loadOrdersRuntime().metrics),
  ],
  controllers: [
    HealthController,
    MetricsController,
    OrdersController,
    OrderStatusHistoryController,
    AdminOrdersController,
  ],
  providers: [
    { provide: ORDERS_CONFIG, useFactory: () => loadOrdersConfig() },
    { provide: CLOCK, useValue: systemClock },
    {
      provide: IdempotentRequests,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new IdempotentRequests(ds, ORDERS_SCHEMA),
    },
    KycServiceClient,
    KycEligibility,
    CreateOrderUseCase,
    OrdersQueries,
    AdminOrdersQueries,
    OrderTransitions,
    KycEventsHandler,
    PaymentEventsHandler,
    TransferEventsHandler,
  ],
})
export class AppModule {}
