import { Logger } from '@nestjs/common';

import { startAuth } from './bootstrap';

startAuth().catch((err: unknown) => {
  new Logger('auth').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
