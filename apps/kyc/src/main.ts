import { Logger } from '@nestjs/common';

import { loadKycConfig, startKyc } from '@onramp/kyc-feature';
import { installAppLogger, loadLoggingConfig } from '@onramp/logging';

// The process edge: the only place kyc reads its environment. The logger first, so that even a
// configuration error at boot is a JSON line with LOG_FORMAT=json.
installAppLogger('kyc', loadLoggingConfig(process.env));

Promise.resolve()
  .then(() => startKyc(loadKycConfig(process.env)))
  .catch((err: unknown) => {
    new Logger('kyc').error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
