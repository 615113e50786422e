// orders as a library: apps/orders/src/main.ts, the embedded runner, the OpenAPI generator, the
// migrate tool and the service's integration tests all start here.
export {
  loadOrdersConfig,
  loadOrdersRuntime,
  ORDERS_SCHEMA,
  TEST_COLLECTION_BIC,
  TEST_COLLECTION_IBAN,
} from './config';
export type { OrdersConfig, OrdersRuntime } from './config';
export { SERVICE_DATABASE } from './database';
export { OrdersModule } from './orders.module';
export { startOrders } from './start-orders';
// What the service's tests read back.
export type { AdminOrderDetails, AdminOrderResponse } from './orders/admin-orders.queries';
// The statements a test calls directly (a consumer batch's run, which a test cannot form on demand).
export { OrdersRepository } from './orders/orders.repository';
