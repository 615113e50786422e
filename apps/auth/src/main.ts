import { Logger } from '@nestjs/common';

import { loadAuthConfig, startAuth } from '@onramp/auth-feature';
import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

// The process edge: the only place auth reads its environment. The logger first, so that even a
// configuration error at boot is a JSON line with LOG_FORMAT=json.
installAppLogger('auth', loadLoggingConfig(process.env));

Promise.resolve()
  .then(() => startAuth(loadAuthConfig(process.env)))
  .catch((err: unknown) => {
    new Logger('auth').error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
