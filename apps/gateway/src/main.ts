import { Logger } from '@nestjs/common';

import { loadGatewayConfig, startGateway } from '@onramp/gateway-feature';
import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

// The process edge: the only place the gateway reads its environment. The logger first, so that even
// a configuration error at boot is a JSON line with LOG_FORMAT=json.
installAppLogger('gateway', loadLoggingConfig(process.env));

Promise.resolve()
  .then(() => startGateway(loadGatewayConfig(process.env)))
  .catch((err: unknown) => {
    new Logger('gateway').error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
