import { KYC_SCHEMA } from '../config';

// The service's tables, schema-qualified once: every SQL string of the repositories names them
// through these, so the schema name lives in one constant (KYC_SCHEMA).
export const KYC_USERS = `"${KYC_SCHEMA}"."kyc_users"`;
export const KYC_DECISIONS = `"${KYC_SCHEMA}"."kyc_decisions"`;
export const KYC_IDEMPOTENCY_KEYS = `"${KYC_SCHEMA}"."idempotency_keys"`;
export const KYC_OUTBOX = `"${KYC_SCHEMA}"."outbox"`;
