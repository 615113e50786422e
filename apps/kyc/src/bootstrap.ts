import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadKycConfig, loadKycRuntime } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
export async function startKyc(): Promise<NestFastifyApplication> {
  const config = loadKycConfig();
  const runtime = loadKycRuntime();
  return bootstrapHttpService(AppModule, {
    name: 'kyc',
    port: config.port,
    host: config.host,
    logging: runtime.logging,
    tracing: runtime.tracing,
  });
}
