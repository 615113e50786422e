import { Logger } from '@nestjs/common';

import { startChainSettlement } from './bootstrap';

startChainSettlement().catch((err: unknown) => {
  new Logger('chain-settlement').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
