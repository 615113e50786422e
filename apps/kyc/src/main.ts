import { Logger } from '@nestjs/common';

import { bootstrapHttpService } from '@onramp/http';

import { AppModule } from './app.module';
import { loadKycConfig } from './config';

async function main(): Promise<void> {
  const config = loadKycConfig();
  await bootstrapHttpService(AppModule, {
    name: 'kyc',
    port: config.port,
    host: config.host,
    logLevel: config.logLevel,
  });
}

main().catch((err: unknown) => {
  new Logger('kyc').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
