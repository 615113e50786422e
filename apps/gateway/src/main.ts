import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startGateway } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('gateway', loadLoggingConfig(process.env));

startGateway().catch((err: unknown) => {
  new Logger('gateway').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
