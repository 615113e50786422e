import { Logger } from '@nestjs/common';

import { startOrders } from './bootstrap';

startOrders().catch((err: unknown) => {
  new Logger('orders').error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
