import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { KycConfig } from './config';
import { KycModule } from './kyc.module';

// The service listening on its port: main.ts runs it as a process, the embedded runner beside the
// others in one; both parse the config first (loadKycConfig) and pass it here.
export async function startKyc(config: KycConfig): Promise<NestFastifyApplication> {
  return bootstrapHttpService(KycModule.forRoot(config), {
    name: 'kyc',
    port: config.port,
    host: config.host,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
  });
}
