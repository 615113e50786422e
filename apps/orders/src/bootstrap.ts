import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadOrdersConfig, loadOrdersRuntime } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startOrders(): Promise<NestFastifyApplication> {
  const config = loadOrdersConfig();
  const runtime = loadOrdersRuntime();
  return bootstrapHttpService(AppModule, {
    name: 'orders',
    port: config.port,
    host: config.host,
    logging: runtime.logging,
    tracing: runtime.tracing,
  });
}
