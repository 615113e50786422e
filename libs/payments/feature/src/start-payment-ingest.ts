import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { PaymentIngestConfig } from './config';
import { PaymentIngestModule } from './payment-ingest.module';

// The service listening on its port: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadPaymentIngestConfig) and pass it here.
export async function startPaymentIngest(config: PaymentIngestConfig): Promise<NestFastifyApplication> {
  return bootstrapHttpService(PaymentIngestModule.forRoot(config), {
    name: 'payment-ingest',
    port: config.port,
    host: config.host,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
  });
}
