import { Logger } from '@nestjs/common';

import { startGateway } from './bootstrap';

export { ADMIN_BIND_HOST, startGateway } from './bootstrap';
export type { RunningGateway } from './bootstrap';

if (require.main === module) {
  startGateway().catch((err: unknown) => {
    new Logger('gateway').error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
