import { Client } from 'pg';

import { usdcToBaseUnits } from '@onramp/money';

import { LedgerSnapshot } from './ledger.types';

interface OrderRow {
  uuid: string;
  merchant_id: string;
  status: string;
  recipient_address: string;
  transaction_hash: string | null;
  sent_token_amount: string | null;
}

interface SettlementRow {
  order_uuid: string;
  merchant_id: string;
  state: string;
  tx_hash: string | null;
  recipient_address: string;
  token_base_units: string | null;
}

// An operator tool, so it reads two services' schemas directly (read-only, one REPEATABLE READ
// snapshot so orders and settlements are seen at the same instant). Services never do this.
// Every merchant's rows, even when the report is about some: a transfer paying another merchant's
// order must not look like one that pays nobody.
export async function readLedgerSnapshot(databaseUrl: string): Promise<LedgerSnapshot> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'onramp-reconcile' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const orders = await client.query<OrderRow>(
      `SELECT uuid, merchant_id, status, recipient_address, transaction_hash, sent_token_amount::text
       FROM "orders"."orders"`,
    );
    const settlements = await client.query<SettlementRow>(
      `SELECT order_uuid, merchant_id, state, tx_hash, recipient_address, token_base_units::text
       FROM "settlement"."settlements"`,
    );
    const signers = await client.query<{ address: string }>(`SELECT address FROM "settlement"."signers"`);
    const replaced = await replacedTransactions(client);
    await client.query('COMMIT');
    return {
      orders: orders.rows.map((r) => ({
        uuid: r.uuid,
        merchantId: r.merchant_id,
        status: r.status,
        recipientAddress: r.recipient_address,
        transactionHash: r.transaction_hash,
        sentTokenBaseUnits: r.sent_token_amount === null ? null : usdcToBaseUnits(r.sent_token_amount),
      })),
      settlements: settlements.rows.map((r) => ({
        orderUuid: r.order_uuid,
        merchantId: r.merchant_id,
        state: r.state,
        txHash: r.tx_hash,
        replacedTxHashes: (replaced.get(r.order_uuid) ?? []).filter((h) => h !== r.tx_hash),
        recipientAddress: r.recipient_address,
        tokenBaseUnits: r.token_base_units === null ? null : BigInt(r.token_base_units),
      })),
      hotWallets: signers.rows.map((r) => r.address),
    };
  } finally {
    await client.end();
  }
}

// Every transaction signed for a settlement (a stuck one is replaced by another with the same nonce),
// where the settlement service keeps them; older schemas have only settlements.tx_hash.
async function replacedTransactions(client: Client): Promise<Map<string, string[]>> {
  const { rows: exists } = await client.query<{ present: boolean }>(
    `SELECT to_regclass('"settlement"."settlement_transactions"') IS NOT NULL AS present`,
  );
  const byOrder = new Map<string, string[]>();
  if (!exists[0]?.present) return byOrder;
  const { rows } = await client.query<{ order_uuid: string; tx_hash: string }>(
    `SELECT order_uuid, tx_hash FROM "settlement"."settlement_transactions"`,
  );
  for (const r of rows) byOrder.set(r.order_uuid, [...(byOrder.get(r.order_uuid) ?? []), r.tx_hash]);
  return byOrder;
}
