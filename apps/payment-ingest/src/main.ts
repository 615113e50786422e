import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startPaymentIngest } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('payment-ingest', loadLoggingConfig(process.env));

startPaymentIngest().catch((err: unknown) => {
  new Logger('payment-ingest').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
