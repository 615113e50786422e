import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows, takeXactLocksWithNextStatement, withGenericPlan, XactLock } from '@onramp/persistence';

import { BANK_TRANSACTIONS, OPEN_REFERENCES } from '../persistence/payments-tables';
import { OpenReferenceEntity } from './open-reference.entity';

// Also read with a credit's insert (BankTransactionsRepository.insertAndLockMerchantReferences).
export const OPEN_REFERENCE_COLUMNS = `reference, order_uuid AS "orderUuid", merchant_id AS "merchantId", amount, currency,
  kyc_user_uuid AS "kycUserUuid", recipient_address AS "recipientAddress", status,
  matched_bank_transaction_id AS "matchedBankTransactionId", created_at AS "createdAt", updated_at AS "updatedAt"`;

// What order.created / order.completed / order.failed tell about a reference (normalized).
export interface OrderReference {
  reference: string;
  orderUuid: string;
  merchantId: string;
  amount: string;
  currency: string;
  recipientAddress: string;
}

// An order.created's reference row: OPEN from the order's creation (ORDER_TTL counts from it).
export type NewOpenReference = OrderReference & { createdAt: Date; kycUserUuid: string };

// What opening a reference found (see insertOpenProbingCredits).
export type OpenOutcome = 'opened' | 'credit-waiting' | 'taken';

// What closing a finished order's reference found (see closeForOrder).
export type CloseOutcome = 'closed' | 'inserted' | 'taken';

// The advisory lock of one (normalized) reference.
export function referenceLock(reference: string): XactLock {
  return { form: 'text-pair', space: 'payments.reference', name: reference };
}

// The SQL of open references. Every method takes the caller's manager (the consumer's in the order
// event handler, the use case's transaction otherwise), so a reference commits with what it causes.
// A reference belongs to one order: the inserts leave a row of another order alone (ON CONFLICT DO
// NOTHING), and the caller checks.
@Injectable()
export class OpenReferencesRepository {
  // A credit and the order.created of its reference can commit at the same time, each unable to see
  // the other: the credit would stay UNMATCHED forever. Both sides first take a transaction-scoped
  // advisory lock per reference (sorted, so two credits never deadlock), then re-read.
  // Sent with the caller's next statement, which is what must see the other side's commits (none
  // for a key the transaction holds already: the order.created consumer takes its event's key with
  // the inbox mark).
  async lockKeys(db: EntityManager, references: string[]): Promise<void> {
    await takeXactLocksWithNextStatement(db, references.map(referenceLock));
  }

  // The row lock makes two simultaneous credits for one reference take turns: the second sees MATCHED.
  async findForUpdate(db: EntityManager, reference: string): Promise<OpenReferenceEntity | undefined> {
    const [row] = await queryRows<OpenReferenceEntity>(
      db,
      `SELECT ${OPEN_REFERENCE_COLUMNS} FROM ${OPEN_REFERENCES} WHERE reference = $1 FOR UPDATE`,
      [reference],
    );
    return row;
  }

  // What order.created's insert found: 'opened' (the reference is this order's and no credit names
  // it yet: nothing more to do), 'credit-waiting' (opened, and some unmatched credit names it), or
  // 'taken' (a row was there already: order.completed/failed overtook this event, or the reference
  // is another order's).
  // One statement instead of an insert and three locking reads: the caller holds the reference's
  // advisory lock since an earlier statement, so this statement's snapshot already shows every
  // credit that named the reference before (a credit takes the same lock, then reads the
  // references). The probe is a superset of the waiting and early statement credits the slow path
  // then reads under row locks; it reads the partial GIN index of unmatched credits (@>).
  async insertOpenProbingCredits(db: EntityManager, ref: NewOpenReference): Promise<OpenOutcome> {
    const [outcome] = await this.insertManyOpenProbingCredits(db, [ref]);
    return outcome!;
  }

  // The same for several order.created events in one statement (a run of them in one consumer
  // batch): an outcome per reference, in their order. Each row is opened only if its reference is
  // free, as one insert after another would; two events naming one reference open it once, for
  // the first. Run with its generic plan: over arrays, Postgres would plan it again at every call.
  async insertManyOpenProbingCredits(
    db: EntityManager,
    refs: readonly NewOpenReference[],
  ): Promise<OpenOutcome[]> {
    const rows = await withGenericPlan(db, () =>
      queryRows<{ openedRow: boolean; creditWaiting: boolean }>(
        db,
        `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::numeric[], $5::text[], $6::text[],
             $7::timestamptz[], $8::uuid[])
           WITH ORDINALITY AS i(reference, order_uuid, merchant_id, amount, currency, recipient_address,
             created_at, kyc_user_uuid, n)
       ), opened AS (
         INSERT INTO ${OPEN_REFERENCES} (reference, order_uuid, merchant_id, amount, currency, recipient_address, status, created_at, kyc_user_uuid)
         SELECT reference, order_uuid, merchant_id, amount, currency, recipient_address, 'OPEN', created_at, kyc_user_uuid
         FROM input ORDER BY n
         ON CONFLICT DO NOTHING
         RETURNING reference, order_uuid)
       SELECT i.n,
         (i.reference, i.order_uuid) IN (SELECT reference, order_uuid FROM opened) AS "openedRow",
         EXISTS (SELECT 1 FROM ${BANK_TRANSACTIONS} t
           WHERE t.match_status = 'UNMATCHED' AND t.candidate_references @> ARRAY[i.reference]
             AND (t.merchant_id = i.merchant_id OR (t.source = 'STATEMENT' AND t.suspense_reason = 'UNKNOWN_REFERENCE'))
         ) AS "creditWaiting"
       FROM input i ORDER BY i.n`,
        [...referenceColumns(refs), refs.map((r) => r.createdAt), refs.map((r) => r.kycUserUuid)],
      ),
    );
    // Opened for the first entry naming its reference only (a later one with the same order is a
    // redelivery of it). Worked out here rather than by a subquery over the input per row, which grew
    // with the square of the run.
    const first = new Map<string, number>();
    refs.forEach((r, i) => {
      if (!first.has(r.reference)) first.set(r.reference, i);
    });
    return rows.map((row, i) => {
      const opened = row.openedRow && first.get(refs[i]!.reference) === i;
      return !opened ? 'taken' : row.creditWaiting ? 'credit-waiting' : 'opened';
    });
  }

  async findByOrder(db: EntityManager, orderUuid: string): Promise<OpenReferenceEntity | undefined> {
    const [row] = await queryRows<OpenReferenceEntity>(
      db,
      `SELECT ${OPEN_REFERENCE_COLUMNS} FROM ${OPEN_REFERENCES} WHERE order_uuid = $1 LIMIT 1`,
      [orderUuid],
    );
    return row;
  }

  // A finished order takes no more money: its reference becomes CLOSED (an EXPIRED one stays so),
  // or, when order.completed/failed overtook order.created, a CLOSED row is written that
  // order.created then leaves alone. 'taken' when the reference is another order's: nothing closed.
  // One statement for the read, the update and the insert.
  async closeForOrder(db: EntityManager, ref: OrderReference, at: Date): Promise<CloseOutcome> {
    const [row] = await queryRows<{ known: boolean; inserted: boolean }>(
      db,
      `WITH known AS (SELECT 1 FROM ${OPEN_REFERENCES} WHERE order_uuid = $2),
       closed AS (
         UPDATE ${OPEN_REFERENCES} SET status = 'CLOSED', updated_at = $7
         WHERE order_uuid = $2 AND status <> 'EXPIRED'),
       inserted AS (
         INSERT INTO ${OPEN_REFERENCES} (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
         SELECT $1::text, $2::uuid, $3::uuid, $4::numeric, $5::text, $6::text, 'CLOSED'
         WHERE NOT EXISTS (SELECT 1 FROM known)
         ON CONFLICT DO NOTHING
         RETURNING 1)
       SELECT EXISTS (SELECT 1 FROM known) AS known, EXISTS (SELECT 1 FROM inserted) AS inserted`,
      [ref.reference, ref.orderUuid, ref.merchantId, ref.amount, ref.currency, ref.recipientAddress, at],
    );
    if (row?.known) return 'closed';
    return row?.inserted ? 'inserted' : 'taken';
  }

  // closeForOrder for several finished orders in one statement, each answer in the order given. Only
  // an order's first entry takes part: a later one answers undefined and its caller closes it alone
  // afterwards, as one by one. The orders differ, so what one finds (its row, the rows it writes)
  // cannot depend on another's, except for two new rows of one reference: the first inserted wins
  // (ON CONFLICT DO NOTHING, in the order given), the other is 'taken', as one by one. With its
  // generic plan (withGenericPlan): planned for its arrays at every call otherwise.
  async closeManyForOrders(
    db: EntityManager,
    refs: readonly OrderReference[],
    at: Date,
  ): Promise<Array<CloseOutcome | undefined>> {
    const rows = await withGenericPlan(db, () =>
      queryRows<{ n: string; known: boolean; inserted: boolean }>(
        db,
        `WITH input AS (
           SELECT DISTINCT ON (order_uuid) *
           FROM unnest($1::text[], $2::uuid[], $3::uuid[], $4::numeric[], $5::text[], $6::text[])
             WITH ORDINALITY AS i(reference, order_uuid, merchant_id, amount, currency, recipient_address, n)
           ORDER BY order_uuid, n
         ), known AS (
           SELECT i.n FROM input i JOIN ${OPEN_REFERENCES} r ON r.order_uuid = i.order_uuid AND r.order_uuid = ANY($2::uuid[])
         ), closed AS (
           UPDATE ${OPEN_REFERENCES} r SET status = 'CLOSED', updated_at = $7
           FROM input i WHERE r.order_uuid = i.order_uuid AND r.order_uuid = ANY($2::uuid[]) AND r.status <> 'EXPIRED'
         ), inserted AS (
           INSERT INTO ${OPEN_REFERENCES} (reference, order_uuid, merchant_id, amount, currency, recipient_address, status)
           SELECT reference, order_uuid, merchant_id, amount, currency, recipient_address, 'CLOSED'
           FROM input i WHERE NOT EXISTS (SELECT 1 FROM known k WHERE k.n = i.n)
           ORDER BY n
           ON CONFLICT DO NOTHING
           RETURNING order_uuid
         )
         SELECT i.n, EXISTS (SELECT 1 FROM known k WHERE k.n = i.n) AS known,
           EXISTS (SELECT 1 FROM inserted x WHERE x.order_uuid = i.order_uuid) AS inserted
         FROM input i`,
        [...referenceColumns(refs), at],
      ),
    );
    const outcomes: Array<CloseOutcome | undefined> = refs.map(() => undefined);
    for (const row of rows)
      outcomes[Number(row.n) - 1] = row.known ? 'closed' : row.inserted ? 'inserted' : 'taken';
    return outcomes;
  }

  // OPEN references created at or before the cutoff, oldest first, locked; a row a credit being
  // matched holds is skipped (SKIP LOCKED), so expiry never waits for a payment nor overtakes it.
  async lockExpirable(
    db: EntityManager,
    cutoff: Date,
    limit: number,
  ): Promise<Array<Pick<OpenReferenceEntity, 'reference' | 'orderUuid' | 'merchantId'>>> {
    return queryRows(
      db,
      `SELECT reference, order_uuid AS "orderUuid", merchant_id AS "merchantId" FROM ${OPEN_REFERENCES}
       WHERE status = 'OPEN' AND created_at <= $1
       ORDER BY created_at LIMIT $2
       FOR UPDATE SKIP LOCKED`,
      [cutoff, limit],
    );
  }

  async markExpired(db: EntityManager, reference: string, at: Date): Promise<void> {
    await db.query(
      `UPDATE ${OPEN_REFERENCES} SET status = 'EXPIRED', updated_at = $2 WHERE reference = $1 AND status = 'OPEN'`,
      [reference, at],
    );
  }
}

// The reference columns of order events as the run statements' arrays, in the order of OrderReference.
function referenceColumns(refs: readonly OrderReference[]): unknown[][] {
  return [
    refs.map((r) => r.reference),
    refs.map((r) => r.orderUuid),
    refs.map((r) => r.merchantId),
    refs.map((r) => r.amount),
    refs.map((r) => r.currency),
    refs.map((r) => r.recipientAddress),
  ];
}
