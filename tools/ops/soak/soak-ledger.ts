import { Client } from 'pg';

export interface BookedOrder {
  status: string;
  amount: string; // EUR, numeric as text
  transactionHash: string | null;
  sentTokenAmount: string | null;
}

export interface InFlight {
  openOrders: number; // CREATED
  settlementsInFlight: number; // PENDING, SIGNED or BROADCAST
  pendingWebhooks: number; // deliveries still to be attempted (or retried)
}

// The books as an operator reads them (straight from the services' schemas, read-only), scoped to
// the soak's merchants. A fresh connection per read.
async function query<T>(databaseUrl: string, sql: string, params: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function bookedOrders(
  databaseUrl: string,
  merchantIds: string[],
): Promise<Map<string, BookedOrder>> {
  const rows = await query<{ uuid: string } & BookedOrder>(
    databaseUrl,
    `SELECT uuid, status, amount::text AS amount, transaction_hash AS "transactionHash",
            sent_token_amount::text AS "sentTokenAmount"
       FROM orders.orders WHERE merchant_id = ANY($1::uuid[])`,
    [merchantIds],
  );
  return new Map(rows.map(({ uuid, ...order }) => [uuid, order]));
}

export async function inFlight(databaseUrl: string, merchantIds: string[]): Promise<InFlight> {
  const [row] = await query<InFlight>(
    databaseUrl,
    `SELECT (SELECT count(*) FROM orders.orders
              WHERE merchant_id = ANY($1::uuid[]) AND status = 'CREATED')::int AS "openOrders",
            (SELECT count(*) FROM settlement.settlements
              WHERE merchant_id = ANY($1::uuid[]) AND state IN ('PENDING', 'SIGNED', 'BROADCAST'))::int AS "settlementsInFlight",
            (SELECT count(*) FROM webhooks.deliveries
              WHERE merchant_id = ANY($1::uuid[]) AND status = 'PENDING')::int AS "pendingWebhooks"`,
    [merchantIds],
  );
  return row;
}
