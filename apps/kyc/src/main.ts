import { Logger } from '@nestjs/common';

import { startKyc } from './bootstrap';

startKyc().catch((err: unknown) => {
  new Logger('kyc').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
