import { ORDERS_SCHEMA } from '../config';

// The service's tables, schema-qualified once: every SQL string of the repositories names them
// through these, so the schema name lives in one constant (ORDERS_SCHEMA).
export const ORDERS = `"${ORDERS_SCHEMA}"."orders"`;
export const ORDER_STATUS_HISTORY = `"${ORDERS_SCHEMA}"."order_status_history"`;
export const KYC_USERS = `"${ORDERS_SCHEMA}"."kyc_users"`;
