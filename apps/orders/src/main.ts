import { loadOrdersConfig, startOrders } from '@onramp/orders-feature';
import { runService } from '@onramp/service-runtime';

// The process edge: the only place orders reads its environment.
runService('orders', process.env, (env) => startOrders(loadOrdersConfig(env)));
