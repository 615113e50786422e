import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startAuth } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('auth', loadLoggingConfig(process.env));

startAuth().catch((err: unknown) => {
  new Logger('auth').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
