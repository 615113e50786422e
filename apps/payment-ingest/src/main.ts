import { Logger } from '@nestjs/common';

import { startPaymentIngest } from './bootstrap';

startPaymentIngest().catch((err: unknown) => {
  new Logger('payment-ingest').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
