import { Logger } from '@nestjs/common';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadChainSettlementConfig } from './config';

// Health only over HTTP; the work is the event consumer and the settlement worker.
async function main(): Promise<void> {
  const config = loadChainSettlementConfig();
  await bootstrapHttpService(AppModule, {
    name: 'chain-settlement',
    port: config.port,
    host: config.host,
    logLevel: config.logLevel,
  });
}

main().catch((err: unknown) => {
  new Logger('chain-settlement').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
