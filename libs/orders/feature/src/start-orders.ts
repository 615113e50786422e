import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { OrdersConfig } from './config';
import { OrdersModule } from './orders.module';

// The service listening on its port: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadOrdersConfig) and pass it here.
export async function startOrders(config: OrdersConfig): Promise<NestFastifyApplication> {
  return bootstrapHttpService(OrdersModule.forRoot(config), {
    name: 'orders',
    port: config.port,
    host: config.host,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
  });
}
