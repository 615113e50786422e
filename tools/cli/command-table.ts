// Every command the CLI knows, as data: the parser, the help and the dispatcher all read this table.

export type Check = (value: string) => string | undefined; // an error message, or undefined when fine

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  value?: string; // placeholder in the help, e.g. URL
  description: string;
  env?: string; // read when the flag is absent
  fallback?: string; // used when neither flag nor env is set
  required?: boolean;
  check?: Check;
}

export interface ArgSpec {
  name: string;
  check?: Check;
}

export type CommandName =
  | 'merchants create'
  | 'merchants list'
  | 'merchants rotate-secret'
  | 'deliveries list'
  | 'deliveries redeliver'
  | 'orders get'
  | 'orders list'
  | 'kyc decide'
  | 'kyc erase'
  | 'payments suspense'
  | 'payments assign'
  | 'payments return'
  | 'payments policy'
  | 'settlements held'
  | 'settlements release'
  | 'sandbox credit'
  | 'operators new'
  | 'operators list'
  | 'operators revoke'
  | 'audit list';

export interface CommandSpec {
  name: CommandName;
  summary: string;
  args: ArgSpec[]; // all required, in order
  options: Record<string, OptionSpec>;
  api: 'admin' | 'base';
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid: Check = (v) => (UUID_RE.test(v) ? undefined : 'must be a UUID');
const notBlank: Check = (v) => (v.trim().length > 0 ? undefined : 'must not be empty');
const oneOf =
  (values: readonly string[]): Check =>
  (v) =>
    values.includes(v) ? undefined : `must be one of ${values.join(', ')}`;
const intBetween =
  (min: number, max: number): Check =>
  (v) =>
    /^\d+$/.test(v) && Number(v) >= min && Number(v) <= max
      ? undefined
      : `must be an integer from ${min} to ${max}`;
// Sent as a decimal string, never through a float: the API takes "10.50" as is.
const eurAmount: Check = (v) =>
  /^\d{1,12}(\.\d{1,2})?$/.test(v) && /[1-9]/.test(v)
    ? undefined
    : 'must be a positive EUR amount with at most 2 decimals, e.g. 10.50';
const httpUrl: Check = (v) => {
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol) ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
};

// Mirrors of the API's enumerations, so a typo is a usage error here; the API validates again.
export const DELIVERY_STATUSES = ['PENDING', 'NO_ENDPOINT', 'DELIVERED', 'DEAD', 'DISABLED'] as const;
export const ORDER_STATUSES = ['CREATED', 'COMPLETED', 'FAILED'] as const;
export const CREDIT_STATUSES = ['BOOKED', 'REJECTED'] as const;
export const KYC_DECISIONS = ['APPROVED', 'REJECTED'] as const;

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3002';
export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  'admin-url': {
    type: 'string',
    value: 'URL',
    env: 'ONRAMP_ADMIN_URL',
    fallback: DEFAULT_ADMIN_URL,
    check: httpUrl,
    description: 'admin API (the gateway admin listener)',
  },
  'base-url': {
    type: 'string',
    value: 'URL',
    env: 'ONRAMP_BASE_URL',
    fallback: DEFAULT_BASE_URL,
    check: httpUrl,
    description: 'merchant API (the gateway base host)',
  },
  'admin-key': {
    type: 'string',
    value: 'KEY',
    env: 'ADMIN_API_KEY',
    description: 'admin API key (prefer the env var: flags show up in ps)',
  },
  json: { type: 'boolean', description: 'print JSON on stdout, for scripts' },
  help: { type: 'boolean', short: 'h', description: 'show help' },
  version: { type: 'boolean', short: 'v', description: 'print the CLI version' },
};

const page: Record<string, OptionSpec> = {
  limit: {
    type: 'string',
    value: 'N',
    check: intBetween(1, 50),
    description: 'page size, 1-50 (default 50)',
  },
  offset: { type: 'string', value: 'N', check: intBetween(0, 1_000_000_000), description: 'rows to skip' },
};

// Mirror of @onramp/auth's OPERATOR_SCOPES (the CLI does not import the apps' libraries).
export const OPERATOR_SCOPES = ['read', 'merchants', 'deliveries', 'kyc', 'money', 'operators'] as const;
const operatorId: Check = (v) =>
  /^[a-z0-9][a-z0-9._@-]{0,63}$/.test(v) && v !== 'admin'
    ? undefined
    : 'must be lower case letters, digits and ._@- (at most 64), and not "admin"';
const scopeList: Check = (v) =>
  v.split('+').every((s) => (OPERATOR_SCOPES as readonly string[]).includes(s))
    ? undefined
    : `must be scopes joined by +, of ${OPERATOR_SCOPES.join(', ')}`;

export const COMMANDS: CommandSpec[] = [
  {
    name: 'merchants create',
    summary: 'create a merchant; prints its id and secret (the secret is shown only once)',
    args: [],
    options: {
      name: { type: 'string', value: 'NAME', required: true, check: notBlank, description: 'display name' },
    },
    api: 'admin',
  },
  {
    name: 'merchants list',
    summary: 'list merchants, newest first',
    args: [],
    options: { ...page },
    api: 'admin',
  },
  {
    name: 'merchants rotate-secret',
    summary: "replace a merchant's secret; prints the new one (the old one stops working at once)",
    args: [{ name: 'merchantId', check: isUuid }],
    options: {},
    api: 'admin',
  },
  {
    name: 'deliveries list',
    summary: 'list webhook deliveries of every merchant, newest first',
    args: [],
    options: {
      merchant: { type: 'string', value: 'ID', check: isUuid, description: 'only this merchant' },
      status: {
        type: 'string',
        value: 'S',
        check: oneOf(DELIVERY_STATUSES),
        description: DELIVERY_STATUSES.join('|'),
      },
      ...page,
    },
    api: 'admin',
  },
  {
    name: 'deliveries redeliver',
    summary: 'send a webhook delivery again now (same event id and body)',
    args: [{ name: 'deliveryId', check: isUuid }],
    options: {},
    api: 'admin',
  },
  {
    name: 'orders get',
    summary: "show any merchant's order with its status history",
    args: [{ name: 'uuid', check: isUuid }],
    options: {},
    api: 'admin',
  },
  {
    name: 'orders list',
    summary: 'list orders of every merchant, newest first',
    args: [],
    options: {
      merchant: { type: 'string', value: 'ID', check: isUuid, description: 'only this merchant' },
      status: {
        type: 'string',
        value: 'S',
        check: oneOf(ORDER_STATUSES),
        description: ORDER_STATUSES.join('|'),
      },
      ...page,
    },
    api: 'admin',
  },
  {
    name: 'kyc decide',
    summary: "approve or reject an end user's KYC (recorded with the operator of your key; orders follow it)",
    args: [{ name: 'uuid', check: isUuid }],
    options: {
      status: {
        type: 'string',
        value: 'S',
        required: true,
        check: oneOf(KYC_DECISIONS),
        description: KYC_DECISIONS.join('|'),
      },
      reason: { type: 'string', value: 'TEXT', required: true, check: notBlank, description: 'why (kept)' },
    },
    api: 'admin',
  },
  {
    name: 'kyc erase',
    summary:
      "erase an end user's personal data (kept: the check's outcome and history, orders, transactions); the user is rejected",
    args: [{ name: 'uuid', check: isUuid }],
    options: {},
    api: 'admin',
  },
  {
    name: 'payments suspense',
    summary: 'list bank credits that pay nothing and wait for a decision (assign or return)',
    args: [],
    options: {},
    api: 'admin',
  },
  {
    name: 'payments assign',
    summary: 'let a suspense credit pay an order (exactly once)',
    args: [{ name: 'creditId', check: isUuid }],
    options: {
      order: {
        type: 'string',
        value: 'UUID',
        required: true,
        check: isUuid,
        description: 'the order it pays',
      },
    },
    api: 'admin',
  },
  {
    name: 'payments return',
    summary: 'send a suspense credit back to its payer (a pain.001 for the bank)',
    args: [{ name: 'creditId', check: isUuid }],
    options: {
      reason: {
        type: 'string',
        value: 'TEXT',
        required: true,
        check: notBlank,
        description: 'told to the payer',
      },
    },
    api: 'admin',
  },
  {
    name: 'payments policy',
    summary:
      "show a merchant's payment policies, or change them (amount FLEXIBLE|EXACT, payer name OFF|WARN|HOLD|DEFAULT)",
    args: [{ name: 'merchantId', check: isUuid }],
    options: {
      amount: {
        type: 'string',
        value: 'P',
        check: oneOf(['FLEXIBLE', 'EXACT']),
        description: 'FLEXIBLE (pay what arrived, within tolerance) or EXACT',
      },
      'payer-name': {
        type: 'string',
        value: 'P',
        check: oneOf(['OFF', 'WARN', 'HOLD', 'DEFAULT']),
        description: "OFF, WARN, HOLD, or DEFAULT (the mode's default)",
      },
    },
    api: 'admin',
  },
  {
    name: 'settlements held',
    summary: 'list payouts HELD over a payout cap, oldest first (amount, recipient, why, since when)',
    args: [],
    options: { ...page },
    api: 'admin',
  },
  {
    name: 'settlements release',
    summary: 'let a HELD payout pass its caps: signed and sent by the next pass (scope money; audited)',
    args: [{ name: 'orderUuid', check: isUuid }],
    options: {},
    api: 'admin',
  },
  {
    name: 'sandbox credit',
    summary: "book an end user's SEPA transfer in the sandbox bank (as the merchant)",
    args: [],
    options: {
      reference: {
        type: 'string',
        value: 'RF..',
        required: true,
        check: notBlank,
        description: "the order's SEPA reference",
      },
      amount: {
        type: 'string',
        value: 'EUR',
        required: true,
        check: eurAmount,
        description: 'amount paid, e.g. 10.50',
      },
      'payer-name': {
        type: 'string',
        value: 'NAME',
        check: notBlank,
        description: 'payer (default Sandbox Payer)',
      },
      status: {
        type: 'string',
        value: 'S',
        check: oneOf(CREDIT_STATUSES),
        description: `${CREDIT_STATUSES.join('|')} (default BOOKED)`,
      },
      'merchant-id': {
        type: 'string',
        value: 'ID',
        env: 'ONRAMP_MERCHANT_ID',
        required: true,
        check: isUuid,
        description: 'merchant credentials for the token',
      },
      'merchant-secret': {
        type: 'string',
        value: 'SECRET',
        env: 'ONRAMP_MERCHANT_SECRET',
        required: true,
        description: 'merchant secret (prefer the env var)',
      },
    },
    api: 'base',
  },
  {
    name: 'operators new',
    summary: 'create a named operator (scopes joined by +); prints its key, shown only once',
    args: [
      { name: 'id', check: operatorId },
      { name: 'scopes', check: scopeList },
    ],
    options: {},
    api: 'admin',
  },
  {
    name: 'operators list',
    summary: 'list the operators created through the admin API, revoked ones included',
    args: [],
    options: {},
    api: 'admin',
  },
  {
    name: 'operators revoke',
    summary:
      "revoke an operator: its key stops working within seconds (OPERATOR_KEYS entries: edit the gateway's Secret)",
    args: [{ name: 'id', check: operatorId }],
    options: {},
    api: 'admin',
  },
  {
    name: 'audit list',
    summary: 'who changed what, newest first: merchants, secrets, redeliveries, KYC decisions, money',
    args: [],
    options: {
      limit: {
        type: 'string',
        value: 'N',
        check: intBetween(1, 50),
        description: 'records, 1-50 (default 50)',
      },
      before: {
        type: 'string',
        value: 'TIME',
        check: (v) => (Number.isNaN(Date.parse(v)) ? 'must be an ISO 8601 time' : undefined),
        description: 'only records before this time (the last line of a page says which)',
      },
    },
    api: 'admin',
  },
];

export const GROUPS = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
