import {
  kycHolderNameContext,
  paymentsFieldContext,
  payerNameContext,
  webhookBodyContext,
  webhookSecretContext,
} from '@onramp/crypto';

import { ResealReport, resealTables, SealedTable } from './sealed-tables';

// Re-seals every value of the payer-data ring under its newest key: the payer's name and IBAN in
// payments (with their blind index recomputed), the KYC holders' names payment-ingest keeps, the
// sealed payer name orders and settlement pass on, and webhook delivery bodies. Values still plain
// (stored before sealing) are sealed. Each column with the associated data its service binds it with
// (@onramp/crypto). Batches like rekeyKyc: rows locked with SKIP LOCKED, a row rewritten only if still
// what was read, only rows not yet under the newest key selected, so it is safe beside the running
// services, interruptible and resumable. Events already in the log are not rewritten (a log is
// append-only): the old key stays in the ring until the topics' retention has dropped them.
export interface RekeyPayerDataOptions {
  databaseUrl: string;
  keys: readonly string[]; // newest first: PAYER_DATA_ENCRYPTION_KEY, then PAYER_DATA_PREVIOUS_ENCRYPTION_KEYS
  batchSize?: number;
}

const PAYER_DATA_TABLES: SealedTable[] = [
  {
    name: 'payments.bank_transactions',
    id: 'id',
    columns: [
      { column: 'payer_name', context: (id) => paymentsFieldContext('bank-transaction', id, 'payer-name') },
      { column: 'payer_iban', context: (id) => paymentsFieldContext('bank-transaction', id, 'payer-iban') },
    ],
    ibanIndex: { column: 'payer_iban_index', of: 'payer_iban' },
  },
  {
    name: 'payments.returns',
    id: 'id',
    columns: [
      { column: 'creditor_name', context: (id) => paymentsFieldContext('return', id, 'creditor-name') },
      { column: 'creditor_iban', context: (id) => paymentsFieldContext('return', id, 'creditor-iban') },
      { column: 'pain001', context: (id) => paymentsFieldContext('return', id, 'pain001') },
    ],
    ibanIndex: { column: 'creditor_iban_index', of: 'creditor_iban' },
  },
  {
    name: 'payments.kyc_holders',
    id: 'user_uuid',
    columns: [{ column: 'holder_name', context: kycHolderNameContext }],
  },
  {
    name: 'orders.orders',
    id: 'uuid',
    columns: [{ column: 'payer_account_holder_name', context: payerNameContext }],
  },
  {
    name: 'settlement.settlements',
    id: 'order_uuid',
    columns: [{ column: 'payer_account_holder_name', context: payerNameContext }],
  },
  {
    name: 'webhooks.deliveries',
    id: 'id',
    columns: [{ column: 'body', context: webhookBodyContext }],
  },
];

export type RekeyPayerDataReport = ResealReport;

export function rekeyPayerData(opts: RekeyPayerDataOptions): Promise<RekeyPayerDataReport> {
  return resealTables(opts.databaseUrl, opts.keys, PAYER_DATA_TABLES, opts.batchSize);
}

// webhook-dispatch's own ring (WEBHOOK_SECRET_ENCRYPTION_KEY, WEBHOOK_SECRET_PREVIOUS_ENCRYPTION_KEYS):
// the merchants' signing secrets.
const WEBHOOK_SECRET_TABLES: SealedTable[] = [
  {
    name: 'webhooks.endpoints',
    id: 'merchant_id',
    columns: [{ column: 'secret_enc', context: webhookSecretContext }],
  },
];

export function rekeyWebhookSecrets(opts: RekeyPayerDataOptions): Promise<ResealReport> {
  return resealTables(opts.databaseUrl, opts.keys, WEBHOOK_SECRET_TABLES, opts.batchSize);
}
