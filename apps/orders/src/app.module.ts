import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { AdminKeyModule, MerchantAuthModule } from '@onramp/auth';
import { HealthController, IdempotentRequests } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { systemClock } from '@onramp/orders-domain';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminOrdersController } from './admin/admin-orders.controller';
import { loadOrdersConfig, ORDERS_CONFIG, ORDERS_SCHEMA, ordersConsumerName } from './config';
import { OrderEventsHandler } from './events/order-events.handler';
import { CLOCK, OrderTransitions } from './events/order-transitions';
import { KycEligibility } from './kyc/kyc-eligibility';
import { KycServiceClient } from './kyc/kyc-service.client';
import { KycUserProjectionEntity } from './kyc/kyc-user-projection.entity';
import { CreateOrders1750000200000 } from './migrations/1750000200000-create-orders';
import { AdminOrdersQueries } from './orders/admin-orders.queries';
import { CreateOrderUseCase } from './orders/create-order.usecase';
import { OrderStatusHistoryEntity } from './orders/order-status-history.entity';
import { OrderEntity } from './orders/order.entity';
import { OrdersController } from './orders/orders.controller';
import { OrdersQueries } from './orders/orders.queries';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadOrdersConfig().databaseUrl,
      schema: ORDERS_SCHEMA,
      entities: [OrderEntity, OrderStatusHistoryEntity, KycUserProjectionEntity],
      migrations: [CreateOrders1750000200000],
    })),
    MessagingModule.forService({ schema: ORDERS_SCHEMA, service: ordersConsumerName() }),
    MerchantAuthModule,
    AdminKeyModule.fromEnv(),
  ],
  controllers: [HealthController, OrdersController, AdminOrdersController],
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
    OrderEventsHandler,
  ],
})
export class AppModule {}
