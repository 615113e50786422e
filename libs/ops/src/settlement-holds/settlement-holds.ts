import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

// Settlements HELD over a payout cap (chain-settlement), for an operator: list them, and release one
// past its caps. Released: back to PENDING with released_by set, so the next signing pass signs it
// whatever the caps say; the release is appended to settlement.admin_audit in the same transaction.
export interface HeldSettlement {
  orderUuid: string;
  merchantId: string;
  recipientAddress: string;
  tokenAmount: string | null; // USDC
  reason: string | null;
  heldSince: string;
}

export type ReleaseOutcome = { kind: 'released' } | { kind: 'not-held'; state: string | null };

export async function listHeldSettlements(databaseUrl: string): Promise<HeldSettlement[]> {
  return withClient(databaseUrl, async (db) => {
    const rows = await db.query<{
      order_uuid: string;
      merchant_id: string;
      recipient_address: string;
      token_amount: string | null;
      last_error: string | null;
      updated_at: Date;
    }>(
      `SELECT order_uuid, merchant_id, recipient_address, token_amount::text, last_error, updated_at
       FROM "settlement"."settlements" WHERE state = 'HELD' ORDER BY created_at`,
    );
    return rows.rows.map((r) => ({
      orderUuid: r.order_uuid,
      merchantId: r.merchant_id,
      recipientAddress: r.recipient_address,
      tokenAmount: r.token_amount,
      reason: r.last_error,
      heldSince: r.updated_at.toISOString(),
    }));
  });
}

export async function releaseHeldSettlement(opts: {
  databaseUrl: string;
  orderUuid: string;
  operator: string;
}): Promise<ReleaseOutcome> {
  return withClient(opts.databaseUrl, async (db) => {
    await db.query('BEGIN');
    try {
      // Waits for a signing worker that holds the row; a HELD row is never signed while we hold it.
      const found = await db.query<{ state: string; last_error: string | null; token_amount: string | null }>(
        `SELECT state, last_error, token_amount::text FROM "settlement"."settlements" WHERE order_uuid = $1 FOR UPDATE`,
        [opts.orderUuid],
      );
      const row = found.rows[0];
      if (!row || row.state !== 'HELD') {
        await db.query('ROLLBACK');
        return { kind: 'not-held', state: row?.state ?? null };
      }
      await db.query(
        `UPDATE "settlement"."settlements"
         SET state = 'PENDING', released_by = $2, last_error = $3, next_attempt_at = now(), updated_at = now()
         WHERE order_uuid = $1`,
        [opts.orderUuid, opts.operator, `released past the payout caps by ${opts.operator}`],
      );
      await db.query(
        `INSERT INTO "settlement"."admin_audit" (id, operator, action, target, before, after)
         VALUES ($1, $2, 'settlement.release-held', $3, $4, $5)`,
        [
          randomUUID(),
          opts.operator,
          opts.orderUuid,
          JSON.stringify({ state: 'HELD', reason: row.last_error, tokenAmount: row.token_amount }),
          JSON.stringify({ state: 'PENDING', releasedBy: opts.operator }),
        ],
      );
      await db.query('COMMIT');
      return { kind: 'released' };
    } catch (err) {
      await db.query('ROLLBACK');
      throw err;
    }
  });
}

async function withClient<T>(databaseUrl: string, work: (db: Client) => Promise<T>): Promise<T> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}
