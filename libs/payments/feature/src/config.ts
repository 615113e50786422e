import {
  collectionAccountEnv,
  ConfigError,
  decimalString,
  defaultPorts,
  duration,
  int,
  loadEnv,
  oneOf,
  orderAmountEnv,
  serviceBasics,
  serviceEnv,
  str,
} from '@onramp/config';
import { payerDataEnv, payerDataKeyRing } from '@onramp/crypto';
import { defaultPayerNamePolicy, PAYER_NAME_POLICIES, PayerNamePolicy } from '@onramp/payments-domain';
import { parseCollectionAccounts } from '@onramp/sepa';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

export const PAYMENTS_SCHEMA = 'payments';

const paymentIngestEnv = {
  ...serviceEnv,
  PAYMENT_INGEST_PORT: int({ default: defaultPorts.paymentIngest, min: 0, max: 65535 }),
  // The same bounds as orders: no credit ever pays outside them, whatever the policy.
  ...orderAmountEnv,
  AMOUNT_TOLERANCE_PERCENT: decimalString({ default: '5' }),
  // The collection account returns are sent from (the same one orders shows payers).
  ...collectionAccountEnv,
  // Further receiving accounts: "IBAN BIC Holder name" entries separated by ";" (BIC may be "-").
  COLLECTION_ACCOUNTS: str({ optional: true }),
  // OFF, WARN (recorded on the credit) or HOLD (a third-party payment waits in suspense); unset:
  // HOLD in production, WARN in sandbox.
  PAYER_NAME_POLICY: oneOf([...PAYER_NAME_POLICIES, ''] as const, { default: '' }),
  // An order unpaid this long after its creation fails ("order expired"); later money goes to suspense.
  ORDER_TTL: duration({ default: '7d', minMs: 1000 }),
  // A folder the bank connection drops camt.053/054 files into; unset: admin upload only.
  BANK_STATEMENT_INBOX: str({ optional: true }),
  // Where each return's pain.001 is also written for the bank upload; unset: API download only.
  RETURNS_OUTBOX: str({ optional: true }),
  // The payer-data ring, shared with kyc and webhook-dispatch (docs/security.md, PII at rest): seals
  // the payer's name and IBAN at rest and the name in payment.confirmed, opens the KYC holder's name.
  ...payerDataEnv,
};

export interface PaymentIngestConfig {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
  minAmount: string;
  maxAmount: string;
  tolerancePercent: string;
  collectionAccount: { iban: string; bic: string | null; name: string } | null;
  // every receiving account: the one above first, then COLLECTION_ACCOUNTS
  collectionAccounts: { iban: string; bic: string | null; name: string }[];
  returnsOutbox: string | null;
  orderTtlMs: number;
  payerNamePolicy: PayerNamePolicy;
  statementInbox: string | null;
  payerDataKeys: string[]; // newest first
  runtime: PaymentIngestRuntime; // what the shared libs are given
}

export const PAYMENT_INGEST_CONFIG = Symbol('PAYMENT_INGEST_CONFIG');

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadPaymentIngestConfig(source: NodeJS.ProcessEnv): PaymentIngestConfig {
  const env = loadEnv(paymentIngestEnv, source);
  const primary = env.COLLECTION_IBAN
    ? {
        iban: env.COLLECTION_IBAN,
        bic: env.COLLECTION_BIC || null,
        name: env.COLLECTION_ACCOUNT_NAME || 'Onramp Collections',
      }
    : env.ONRAMP_MODE === 'sandbox'
      ? { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', name: 'Onramp Sandbox Collections' }
      : null;
  let further: { iban: string; bic: string | null; name: string }[];
  try {
    further = parseCollectionAccounts(env.COLLECTION_ACCOUNTS);
  } catch (err) {
    throw new ConfigError(`invalid configuration: ${(err as Error).message}`);
  }
  return {
    ...serviceBasics(env),
    port: env.PAYMENT_INGEST_PORT,
    minAmount: env.ORDER_MIN_AMOUNT,
    maxAmount: env.ORDER_MAX_AMOUNT,
    tolerancePercent: env.AMOUNT_TOLERANCE_PERCENT,
    collectionAccount: primary,
    collectionAccounts: [...(primary ? [primary] : []), ...further.filter((a) => a.iban !== primary?.iban)],
    returnsOutbox: env.RETURNS_OUTBOX || null,
    orderTtlMs: env.ORDER_TTL,
    payerNamePolicy: env.PAYER_NAME_POLICY || defaultPayerNamePolicy(env.ONRAMP_MODE),
    statementInbox: env.BANK_STATEMENT_INBOX || null,
    payerDataKeys: payerDataKeyRing(env, env.ONRAMP_MODE === 'production'),
    runtime: loadPaymentIngestRuntime(source),
  };
}

export type PaymentIngestRuntime = ServiceRuntime;

// What this service gives the shared libs, which never read the environment themselves.
export function loadPaymentIngestRuntime(source: NodeJS.ProcessEnv): ServiceRuntime {
  return loadServiceRuntime(source);
}
