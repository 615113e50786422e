import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';
import { loadWebhookConfig, startWebhookDispatch } from '@onramp/webhooks-feature';

// The process edge: the only place webhook-dispatch reads its environment. The logger first, so
// that even a configuration error at boot is a JSON line with LOG_FORMAT=json.
installAppLogger('webhook-dispatch', loadLoggingConfig(process.env));

Promise.resolve()
  .then(() => startWebhookDispatch(loadWebhookConfig(process.env)))
  .catch((err: unknown) => {
    new Logger('webhook-dispatch').error(
      `failed to start: ${err instanceof Error ? err.message : String(err)}`,
    );
    process.exit(1);
  });
