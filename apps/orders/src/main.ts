import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startOrders } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('orders', loadLoggingConfig(process.env));

startOrders().catch((err: unknown) => {
  new Logger('orders').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
