import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startKyc } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('kyc', loadLoggingConfig(process.env));

startKyc().catch((err: unknown) => {
  new Logger('kyc').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
