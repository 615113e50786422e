import { Logger } from '@nestjs/common';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadPaymentIngestConfig } from './config';

async function main(): Promise<void> {
  const config = loadPaymentIngestConfig();
  await bootstrapHttpService(AppModule, {
    name: 'payment-ingest',
    port: config.port,
    host: config.host,
    logLevel: config.logLevel,
  });
}

main().catch((err: unknown) => {
  new Logger('payment-ingest').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
