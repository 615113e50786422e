import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

import { startWebhookDispatch } from './bootstrap';

// First: with LOG_FORMAT=json even a configuration error at boot is a JSON line.
installAppLogger('webhook-dispatch', loadLoggingConfig(process.env));

startWebhookDispatch().catch((err: unknown) => {
  new Logger('webhook-dispatch').error(
    `failed to start: ${err instanceof Error ? err.message : String(err)}`,
  );
  process.exit(1);
});
