import { WEBHOOKS_SCHEMA } from '../config';

// The service's tables, schema-qualified once: every SQL string of the repositories names them
// through these, so the schema name lives in one constant (WEBHOOKS_SCHEMA).
export const ENDPOINTS = `"${WEBHOOKS_SCHEMA}"."endpoints"`;
export const DELIVERIES = `"${WEBHOOKS_SCHEMA}"."deliveries"`;
export const DELIVERY_ATTEMPTS = `"${WEBHOOKS_SCHEMA}"."delivery_attempts"`;
export const MERCHANT_DUE = `"${WEBHOOKS_SCHEMA}"."merchant_due"`;
export const MERCHANT_DUE_HINTS = `"${WEBHOOKS_SCHEMA}"."merchant_due_hints"`;
