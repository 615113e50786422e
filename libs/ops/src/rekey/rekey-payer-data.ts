import { Client } from 'pg';

import {
  FieldCipher,
  ibanIndexes,
  isSealed,
  kycHolderNameContext,
  paymentsFieldContext,
  payerNameContext,
  webhookBodyContext,
} from '@onramp/crypto';

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

interface SealedTable {
  name: string; // schema.table, as in the report
  id: string; // the primary key column
  columns: { column: string; context: (id: string) => string }[];
  ibanIndex?: { column: string; of: string }; // a blind index kept beside a sealed IBAN
}

const TABLES: SealedTable[] = [
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

export interface RekeyPayerDataReport {
  keyId: string;
  resealed: Record<string, number>; // rows rewritten per table
  missing: string[]; // tables this database does not have (a service not deployed here)
}

export async function rekeyPayerData(opts: RekeyPayerDataOptions): Promise<RekeyPayerDataReport> {
  const cipher = new FieldCipher(opts.keys);
  const batchSize = opts.batchSize ?? 200;
  const client = new Client({ connectionString: opts.databaseUrl });
  await client.connect();
  const report: RekeyPayerDataReport = { keyId: cipher.keyId, resealed: {}, missing: [] };
  try {
    for (const table of TABLES) {
      const { rows } = await client.query<{ exists: boolean }>(
        `SELECT to_regclass($1) IS NOT NULL AS exists`,
        [table.name],
      );
      if (!rows[0]?.exists) {
        report.missing.push(table.name);
        continue;
      }
      report.resealed[table.name] = await inBatches(client, () =>
        resealBatch(client, cipher, opts.keys, table, batchSize),
      );
    }
    return report;
  } finally {
    await client.end();
  }
}

async function resealBatch(
  client: Client,
  cipher: FieldCipher,
  ring: readonly string[],
  table: SealedTable,
  batchSize: number,
): Promise<number> {
  const cols = table.columns.map((c) => c.column);
  const stale = cols.map((c) => `(${c} IS NOT NULL AND split_part(${c}, '.', 2) <> $1)`).join(' OR ');
  const { rows } = await client.query<Record<string, string | null>>(
    `SELECT ${table.id}::text AS id, ${cols.join(', ')} FROM ${table.name}
     WHERE ${stale} ORDER BY ${table.id} LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [cipher.keyId, batchSize],
  );
  for (const row of rows) {
    const id = row.id as string;
    const next: Record<string, string | null> = {};
    const plain: Record<string, string | null> = {};
    for (const { column, context } of table.columns) {
      const value = row[column];
      plain[column] = value === null ? null : isSealed(value) ? cipher.decrypt(value, context(id)) : value;
      next[column] =
        value === null || (isSealed(value) && !cipher.isStale(value))
          ? value
          : cipher.encrypt(plain[column] as string, context(id));
    }
    const sets = cols.map((c, i) => `${c} = $${i + 2}`);
    const params: (string | null)[] = [id, ...cols.map((c) => next[c])];
    if (table.ibanIndex) {
      const iban = plain[table.ibanIndex.of];
      sets.push(`${table.ibanIndex.column} = $${params.length + 1}`);
      params.push(iban === null ? null : ibanIndexes([ring[0]], iban)[0]);
    }
    const unchanged = cols.map((c, i) => `${c} IS NOT DISTINCT FROM $${params.length + i + 1}`);
    params.push(...cols.map((c) => row[c]));
    await client.query(
      `UPDATE ${table.name} SET ${sets.join(', ')} WHERE ${table.id} = $1::uuid AND ${unchanged.join(' AND ')}`,
      params,
    );
  }
  return rows.length;
}

async function inBatches(client: Client, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    await client.query('BEGIN');
    try {
      const n = await batch();
      await client.query('COMMIT');
      total += n;
      if (n === 0) return total;
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    }
  }
}
