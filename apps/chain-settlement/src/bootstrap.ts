import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadChainSettlementConfig, loadChainSettlementRuntime } from './config';

// The app on its own: main.ts runs it as a process, the embedded runner beside the others in one.
// Health only over HTTP; the work is the event consumer and the settlement worker.
export async function startChainSettlement(): Promise<NestFastifyApplication> {
  const config = loadChainSettlementConfig();
  const runtime = loadChainSettlementRuntime();
  return bootstrapHttpService(AppModule, {
    name: 'chain-settlement',
    port: config.port,
    host: config.host,
    logging: runtime.logging,
    tracing: runtime.tracing,
  });
}
