import { EntityManager } from 'typeorm';

import { takeXactLocks, XactLock } from '@onramp/persistence';

import { SETTLEMENT_SCHEMA } from '../config';

const REVERSALS = `"${SETTLEMENT_SCHEMA}"."payment_reversals"`;

export type ReversalOutcome = 'CANCELLED' | 'BEFORE_SETTLEMENT' | 'TOO_LATE';

// payment.confirmed and payment.reversed of one order travel on two topics and may arrive in either
// order, each handled in its consumer's transaction. Both handlers take this transaction-scoped lock
// first, so one sees what the other committed: a reversal never misses a settlement being created,
// and a confirmation never creates a settlement for a payment already reversed.
// Both consumers name it first (EventConsumer.on's locksFirst), so taking it here costs nothing then.
export async function lockOrderPayment(manager: EntityManager, orderUuid: string): Promise<void> {
  await takeXactLocks(manager, [orderPaymentLock(orderUuid)]);
}

export function orderPaymentLock(orderUuid: string): XactLock {
  return { form: 'text-extended', name: `settlement.payment:${orderUuid}` };
}

// The reversal recorded for the order, if any (call under lockOrderPayment).
export async function reversalOf(
  manager: EntityManager,
  orderUuid: string,
): Promise<{ outcome: ReversalOutcome; reason: string } | undefined> {
  const rows: { outcome: ReversalOutcome; reason: string }[] = await manager.query(
    `SELECT outcome, reason FROM ${REVERSALS} WHERE order_uuid = $1`,
    [orderUuid],
  );
  return rows[0];
}

export interface NewReversal {
  orderUuid: string;
  bankTransactionId: string;
  amount: string;
  reason: string;
  outcome: ReversalOutcome;
  settlementState: string | null; // the settlement's state when the reversal arrived, if any
}

export async function recordReversal(manager: EntityManager, r: NewReversal): Promise<void> {
  await manager.query(
    `INSERT INTO ${REVERSALS} (order_uuid, bank_transaction_id, amount, reason, outcome, settlement_state)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [r.orderUuid, r.bankTransactionId, r.amount, r.reason, r.outcome, r.settlementState],
  );
}

// What orders and the webhook say: the order failed, and why, without the word "transfer".
export const reversedPaymentReason = (code: string): string =>
  `payment reversed by the bank (${code}) before payout`;
