import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startChainSettlement } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('chain-settlement', loadLoggingConfig(process.env));

startChainSettlement().catch((err: unknown) => {
  new Logger('chain-settlement').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
