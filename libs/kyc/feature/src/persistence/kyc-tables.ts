import { KYC_SCHEMA } from '../config';

// The service's tables, schema-qualified once: every SQL string of the repositories names them
// through these, so the schema name lives in one constant (KYC_SCHEMA).
export const KYC_USERS = `"${KYC_SCHEMA}"."kyc_users"`;
export const KYC_DECISIONS = `"${KYC_SCHEMA}"."kyc_decisions"`;
