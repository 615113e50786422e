import { Logger } from '@nestjs/common';

import { installAppLogger, loadLoggingConfig } from '@onramp/logging';
import { loadOrdersConfig, startOrders } from '@onramp/orders-feature';

// The process edge: the only place orders reads its environment. The logger first, so that even a
// configuration error at boot is a JSON line with LOG_FORMAT=json.
installAppLogger('orders', loadLoggingConfig(process.env));

Promise.resolve()
  .then(() => startOrders(loadOrdersConfig(process.env)))
  .catch((err: unknown) => {
    new Logger('orders').error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
