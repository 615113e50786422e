import { Logger } from '@nestjs/common';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadOrdersConfig } from './config';

async function main(): Promise<void> {
  const config = loadOrdersConfig();
  await bootstrapHttpService(AppModule, {
    name: 'orders',
    port: config.port,
    host: config.host,
    logLevel: config.logLevel,
  });
}

main().catch((err: unknown) => {
  new Logger('orders').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
