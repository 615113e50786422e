import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController, IdempotentRequests } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { systemClock } from '@onramp/orders-domain';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminOrdersController } from './admin/admin-orders.controller';
import { ORDERS_CONFIG, ORDERS_SCHEMA, OrdersConfig } from './config';
import { SERVICE_DATABASE } from './database';
import { KycEventsHandler } from './events/kyc-events.handler';
import { CLOCK, OrderTransitions } from './events/order-transitions';
import { PaymentEventsHandler } from './events/payment-events.handler';
import { TransferEventsHandler } from './events/transfer-events.handler';
import { KycEligibility } from './kyc/kyc-eligibility';
import { KycProjectionRepository } from './kyc/kyc-projection.repository';
import { KycServiceClient } from './kyc/kyc-service.client';
import { AdminOrdersQueries } from './orders/admin-orders.queries';
import { CreateOrderUseCase } from './orders/create-order.usecase';
import { OrderStatusHistoryController } from './orders/order-status-history.controller';
import { OrdersController } from './orders/orders.controller';
import { OrdersQueries } from './orders/orders.queries';
import { OrdersRepository } from './orders/orders.repository';

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment.
@Module({})
export class OrdersModule {
  static forRoot(config: OrdersConfig): DynamicModule {
    const { runtime } = config;
    return {
      module: OrdersModule,
      imports: [
        typeOrmRootFor({ url: config.databaseUrl, ...SERVICE_DATABASE, ...runtime.database }),
        MessagingModule.forService({
          schema: ORDERS_SCHEMA,
          service: config.consumerName,
          transport: runtime.transport,
        }),
        MerchantAuthModule.forRoot(runtime.merchantAuth),
        ServiceCallersModule.forRoot(runtime.callers),
        MetricsModule.forRoot(runtime.metrics),
      ],
      controllers: [
        HealthController,
        MetricsController,
        OrdersController,
        OrderStatusHistoryController,
        AdminOrdersController,
      ],
      providers: [
        { provide: ORDERS_CONFIG, useValue: config },
        { provide: CLOCK, useValue: systemClock },
        {
          provide: IdempotentRequests,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new IdempotentRequests(ds, ORDERS_SCHEMA),
        },
        OrdersRepository,
        KycProjectionRepository,
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
    };
  }
}
