import { Client } from 'pg';

import { fromScaledFixed, toScaled } from '@onramp/money';

import { Mismatch } from './ledger.types';

// The euro side: every credit the bank booked is exactly one of paid (matched to an order),
// waiting in suspense, being returned or returned, taken back by the bank (reversed: before it paid
// anything, or before its payout was signed, its order then FAILED), or (sandbox only) waiting for
// its order.

export interface BankCredit {
  id: string;
  amount: string;
  matchStatus: string; // MATCHED | UNMATCHED | DUPLICATE
  orderUuid: string | null;
  suspenseReason: string | null;
  returnStatus: string | null; // RETURN_PENDING | RETURNED
  reversed: boolean; // the bank took it back
}

export interface BankFigures {
  credits: number;
  received: string; // EUR, exact
  paid: string;
  inSuspense: string;
  returning: string; // RETURN_PENDING
  returned: string;
  reversed: string; // taken back by the bank before paying anything (or before the payout was signed)
  waiting: string; // unmatched sandbox credits without a reason yet
}

export function compareBankLedger(
  orders: { uuid: string; status: string }[],
  credits: BankCredit[],
): { figures: BankFigures; mismatches: Mismatch[] } {
  const known = new Map(orders.map((o) => [o.uuid, o.status]));
  const sums = {
    received: 0n,
    paid: 0n,
    inSuspense: 0n,
    returning: 0n,
    returned: 0n,
    reversed: 0n,
    waiting: 0n,
  };
  const mismatches: Mismatch[] = [];
  const paidBy = new Map<string, string[]>();
  for (const c of credits) {
    const cents = toScaled(c.amount, 2);
    sums.received += cents;
    // taken back before its payout was signed: settlement cancelled the payout and the order FAILED,
    // so it paid nothing (a FAILED order sent no USDC)
    const payoutStopped = c.reversed && !!c.orderUuid && known.get(c.orderUuid) === 'FAILED';
    if (c.matchStatus === 'MATCHED' && payoutStopped && !c.returnStatus) sums.reversed += cents;
    else if (c.matchStatus === 'MATCHED') {
      sums.paid += cents;
      if (c.reversed) {
        mismatches.push({
          kind: 'credit-reversed-after-paying',
          orderUuid: c.orderUuid ?? undefined,
          detail: `credit ${c.id} of ${c.amount} EUR paid an order and was then reversed by the bank`,
        });
      }
      if (c.returnStatus) {
        mismatches.push({
          kind: 'credit-paid-and-returned',
          orderUuid: c.orderUuid ?? undefined,
          detail: `credit ${c.id} paid an order and is returned too`,
        });
      }
      if (!c.orderUuid || !known.has(c.orderUuid)) {
        mismatches.push({
          kind: 'credit-for-unknown-order',
          orderUuid: c.orderUuid ?? undefined,
          detail: `credit ${c.id} of ${c.amount} EUR paid an order the books do not have`,
        });
      } else paidBy.set(c.orderUuid, [...(paidBy.get(c.orderUuid) ?? []), c.id]);
    } else if (c.reversed) sums.reversed += cents;
    else if (c.returnStatus === 'RETURNED') sums.returned += cents;
    else if (c.returnStatus === 'RETURN_PENDING') sums.returning += cents;
    else if (c.suspenseReason) sums.inSuspense += cents;
    else sums.waiting += cents;
  }
  for (const [orderUuid, ids] of paidBy) {
    if (ids.length > 1)
      mismatches.push({
        kind: 'order-paid-twice',
        orderUuid,
        detail: `credits ${ids.join(', ')} all paid it`,
      });
  }
  const eur = (v: bigint): string => fromScaledFixed(v, 2);
  return {
    figures: {
      credits: credits.length,
      received: eur(sums.received),
      paid: eur(sums.paid),
      inSuspense: eur(sums.inSuspense),
      returning: eur(sums.returning),
      returned: eur(sums.returned),
      reversed: eur(sums.reversed),
      waiting: eur(sums.waiting),
    },
    mismatches,
  };
}

// Read-only, one snapshot; a database without the payments tables (yet) has no euros to check.
export async function readBankLedger(
  databaseUrl: string,
): Promise<{ orders: { uuid: string; status: string }[]; credits: BankCredit[] }> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'onramp-reconcile' });
  await client.connect();
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const present = await client.query<{ t: string | null; o: string | null }>(
      `SELECT to_regclass('payments.returns')::text AS t, to_regclass('orders.orders')::text AS o`,
    );
    if (!present.rows[0].t || !present.rows[0].o) return { orders: [], credits: [] };
    const orders = await client.query<{ uuid: string; status: string }>(
      `SELECT uuid, status FROM "orders"."orders"`,
    );
    const credits = await client.query<{
      id: string;
      amount: string;
      match_status: string;
      matched_order_uuid: string | null;
      suspense_reason: string | null;
      return_status: string | null;
      reversed: boolean;
    }>(
      `SELECT t.id, t.amount::text, t.match_status, t.matched_order_uuid, t.suspense_reason, r.status AS return_status,
              t.reversed_at IS NOT NULL AS reversed
       FROM "payments"."bank_transactions" t LEFT JOIN "payments"."returns" r ON r.bank_transaction_id = t.id
       WHERE t.status = 'BOOKED'`,
    );
    return {
      orders: orders.rows,
      credits: credits.rows.map((r) => ({
        id: r.id,
        amount: r.amount,
        matchStatus: r.match_status,
        orderUuid: r.matched_order_uuid,
        suspenseReason: r.suspense_reason,
        returnStatus: r.return_status,
        reversed: r.reversed,
      })),
    };
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    await client.end();
  }
}
