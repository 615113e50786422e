import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { IdempotentRequests } from '@onramp/http';
import { systemClock } from '@onramp/orders-domain';
import { serviceInfrastructure } from '@onramp/service-runtime';

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
    const infrastructure = serviceInfrastructure(
      config.databaseUrl,
      SERVICE_DATABASE,
      config.runtime,
      config.consumerName,
    );
    return {
      module: OrdersModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
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
