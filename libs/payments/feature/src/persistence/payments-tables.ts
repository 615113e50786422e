import { PAYMENTS_SCHEMA } from '../config';

// The service's tables, schema-qualified once: the repositories' SQL names them through these, so
// the schema name lives in one constant (PAYMENTS_SCHEMA).
export const OPEN_REFERENCES = `"${PAYMENTS_SCHEMA}"."open_references"`;
export const BANK_TRANSACTIONS = `"${PAYMENTS_SCHEMA}"."bank_transactions"`;
export const KYC_HOLDERS = `"${PAYMENTS_SCHEMA}"."kyc_holders"`;
export const RETURNS = `"${PAYMENTS_SCHEMA}"."returns"`;
export const BANK_STATEMENTS = `"${PAYMENTS_SCHEMA}"."bank_statements"`;
export const COLLECTION_ACCOUNTS = `"${PAYMENTS_SCHEMA}"."collection_accounts"`;
export const MERCHANT_PAYMENT_POLICIES = `"${PAYMENTS_SCHEMA}"."merchant_payment_policies"`;
