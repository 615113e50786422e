import 'reflect-metadata';

import { NestFastifyApplication } from '@nestjs/platform-fastify';

import { bootstrapHttpService } from '@onramp/http';

import { ChainSettlementModule } from './chain-settlement.module';
import { ChainSettlementConfig } from './config';

// The service listening on its port (health, metrics, and /admin/settlements for the gateway; the
// work is the event consumer and the settlement worker): main.ts runs it as a process, the embedded
// runner beside the others in one; both parse the config first (loadChainSettlementConfig) and pass
// it here.
export async function startChainSettlement(config: ChainSettlementConfig): Promise<NestFastifyApplication> {
  return bootstrapHttpService(ChainSettlementModule.forRoot(config), {
    name: 'chain-settlement',
    port: config.port,
    host: config.host,
    logging: config.runtime.logging,
    tracing: config.runtime.tracing,
  });
}
