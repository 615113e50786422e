import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';
import { FeeParams } from '@onramp/settlement-domain';

import { SETTLEMENT_SCHEMA } from '../config';

import { SettlementTransactionEntity } from './settlement-transaction.entity';

const TRANSACTIONS = `"${SETTLEMENT_SCHEMA}"."settlement_transactions"`;

// Each column of a transaction row and the SettlementTransactionEntity property it reads as.
const FIELDS: ReadonlyArray<readonly [column: string, property: keyof SettlementTransactionEntity]> = [
  ['tx_hash', 'txHash'],
  ['id', 'id'],
  ['order_uuid', 'orderUuid'],
  ['signer_address', 'signerAddress'],
  ['nonce', 'nonce'],
  ['raw_tx', 'rawTx'],
  ['max_fee_per_gas', 'maxFeePerGas'],
  ['max_priority_fee_per_gas', 'maxPriorityFeePerGas'],
  ['gas_price', 'gasPrice'],
  ['first_sent_at', 'firstSentAt'],
  ['created_at', 'createdAt'],
];

// The select list of a transaction row: from `table` (an alias, or none) and named `prefix` + the
// property, so a statement joining it to another table's row can tell its columns apart.
export function transactionColumns(table = '', prefix = ''): string {
  const from = table ? `${table}.` : '';
  return FIELDS.map(([column, property]) => `${from}${column} AS "${prefix}${property}"`).join(', ');
}

const COLUMNS = transactionColumns();

export interface SignedAttempt {
  orderUuid: string;
  signerAddress: string;
  nonce: bigint;
  rawTx: string;
  txHash: string;
  fees: FeeParams;
}

// Stored in the transaction that signs it: bytes that may reach a node are always on record first.
export async function recordSignedTransaction(manager: EntityManager, a: SignedAttempt): Promise<void> {
  const f = a.fees;
  const [maxFee, priority, gasPrice] =
    'gasPrice' in f
      ? [null, null, f.gasPrice.toString()]
      : [f.maxFeePerGas.toString(), f.maxPriorityFeePerGas.toString(), null];
  await manager.query(
    `INSERT INTO ${TRANSACTIONS}
       (tx_hash, order_uuid, signer_address, nonce, raw_tx, max_fee_per_gas, max_priority_fee_per_gas, gas_price)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [a.txHash, a.orderUuid, a.signerAddress, a.nonce.toString(), a.rawTx, maxFee, priority, gasPrice],
  );
}

// Oldest first; the last one is the current transaction.
export function transactionsOf(
  manager: EntityManager,
  orderUuid: string,
): Promise<SettlementTransactionEntity[]> {
  return queryRows<SettlementTransactionEntity>(
    manager,
    `SELECT ${COLUMNS} FROM ${TRANSACTIONS} WHERE order_uuid = $1 ORDER BY id ASC`,
    [orderUuid],
  );
}

// The same for many settlements in one query, by order uuid.
export async function transactionsOfMany(
  manager: EntityManager,
  orderUuids: string[],
): Promise<Map<string, SettlementTransactionEntity[]>> {
  const all = await queryRows<SettlementTransactionEntity>(
    manager,
    `SELECT ${COLUMNS} FROM ${TRANSACTIONS} WHERE order_uuid = ANY($1) ORDER BY id ASC`,
    [orderUuids],
  );
  const byOrder = new Map<string, SettlementTransactionEntity[]>();
  for (const t of all) byOrder.set(t.orderUuid, [...(byOrder.get(t.orderUuid) ?? []), t]);
  return byOrder;
}

// Transactions that replaced an earlier one of the same settlement (same nonce, higher fees or gas).
export async function countReplacements(manager: EntityManager): Promise<number> {
  const [row] = await manager.query<Array<{ replacements: number }>>(
    `SELECT (count(*) - count(DISTINCT order_uuid))::int AS replacements FROM ${TRANSACTIONS}`,
  );
  return row?.replacements ?? 0;
}
