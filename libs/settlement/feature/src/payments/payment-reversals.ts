import { EntityManager } from 'typeorm';

// payment.confirmed and payment.reversed of one order travel on two topics and may arrive in either
// order, each handled in its consumer's transaction. Both handlers take this transaction-scoped lock
// first, so one sees what the other committed: a reversal never misses a settlement being created,
// and a confirmation never creates a settlement for a payment already reversed.
export async function lockOrderPayment(manager: EntityManager, orderUuid: string): Promise<void> {
  await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('settlement.payment:' || $1, 0))`, [
    orderUuid,
  ]);
}

export type ReversalOutcome = 'CANCELLED' | 'BEFORE_SETTLEMENT' | 'TOO_LATE';

// The reversal recorded for the order, if any (call under lockOrderPayment).
export async function reversalOf(
  manager: EntityManager,
  orderUuid: string,
): Promise<{ outcome: ReversalOutcome; reason: string } | undefined> {
  const rows: { outcome: ReversalOutcome; reason: string }[] = await manager.query(
    `SELECT outcome, reason FROM "settlement"."payment_reversals" WHERE order_uuid = $1`,
    [orderUuid],
  );
  return rows[0];
}

// What orders and the webhook say: the order failed, and why, without the word "transfer".
export const reversedPaymentReason = (code: string): string =>
  `payment reversed by the bank (${code}) before payout`;
