import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadPaymentIngestConfig, loadPaymentIngestRuntime } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startPaymentIngest(): Promise<NestFastifyApplication> {
  const config = loadPaymentIngestConfig();
  const runtime = loadPaymentIngestRuntime();
  return bootstrapHttpService(AppModule, {
    name: 'payment-ingest',
    port: config.port,
    host: config.host,
    logging: runtime.logging,
    tracing: runtime.tracing,
  });
}
