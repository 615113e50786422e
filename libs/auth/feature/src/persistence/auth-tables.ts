import { AUTH_SCHEMA } from '../config';

// The service's tables, schema-qualified once: every SQL string of the repositories names them
// through these, so the schema name lives in one constant (AUTH_SCHEMA).
export const MERCHANTS = `"${AUTH_SCHEMA}"."merchants"`;
export const SIGNING_KEYS = `"${AUTH_SCHEMA}"."signing_keys"`;
export const OPERATORS = `"${AUTH_SCHEMA}"."operators"`;
