// An operator of the admin API as the gateway authenticated it. Scopes: `read` for every GET, and one
// per kind of change: `merchants` (merchants, their secrets, signing keys), `deliveries` (webhook
// redelivery), `kyc` (KYC decisions), `money` (anything that moves funds: statements, assigning or
// returning a credit), `operators` (creating and revoking operators).
export const OPERATOR_SCOPES = ['read', 'merchants', 'deliveries', 'kyc', 'money', 'operators'] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

export interface Operator {
  id: string;
  scopes: OperatorScope[];
}

// What the gateway tells a service: `X-Operator: <id>;<scope>,<scope>`, bound into its credential.
export const OPERATOR_HEADER = 'x-operator';
export const OPERATOR_ID_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,63}$/;

export const isOperatorScope = (value: string): value is OperatorScope =>
  (OPERATOR_SCOPES as readonly string[]).includes(value);

export function formatOperator(operator: Operator): string {
  return `${operator.id};${operator.scopes.join(',')}`;
}

export function parseOperator(value: string | undefined): Operator | undefined {
  const m = /^([^;]+);([a-z,]*)$/.exec(value ?? '');
  if (!m || !OPERATOR_ID_PATTERN.test(m[1])) return undefined;
  const scopes = m[2].split(',').filter(Boolean);
  if (!scopes.every(isOperatorScope)) return undefined;
  return { id: m[1], scopes };
}
