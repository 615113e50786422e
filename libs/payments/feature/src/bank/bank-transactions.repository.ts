import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows, withCustomPlan, withGenericPlan, writeWithNextStatement } from '@onramp/persistence';
import { OUTBOX_COLUMNS, OutboxRowValues } from '@onramp/messaging';

import type { SettlementContext } from '../matching/settlement-context';
import {
  BANK_TRANSACTIONS,
  KYC_HOLDERS,
  MERCHANT_PAYMENT_POLICIES,
  OPEN_REFERENCES,
  RETURNS,
} from '../persistence/payments-tables';
import { OpenReferenceEntity } from '../references/open-reference.entity';
import { OPEN_REFERENCE_COLUMNS } from '../references/open-references.repository';
import { PayerNameCheck } from '../payer-names/payer-name-check';
import type { MerchantPolicyRow } from '../policies/merchant-policies.repository';
import { BankTransactionEntity } from './bank-transaction.entity';

const COLUMNS = `t.id, t.merchant_id AS "merchantId", t.source, t.account_iban AS "accountIban",
  t.account_servicer_ref AS "accountServicerRef", t.statement_message_id AS "statementMessageId",
  t.suspense_reason AS "suspenseReason", t.reference_raw AS "referenceRaw",
  t.remittance_information AS "remittanceInformation", t.end_to_end_id AS "endToEndId",
  t.candidate_references AS "candidateReferences", t.amount, t.currency, t.payer_name AS "payerName",
  t.payer_iban AS "payerIban", t.payer_iban_index AS "payerIbanIndex", t.payer_name_check AS "payerNameCheck",
  t.status, t.match_status AS "matchStatus", t.matched_reference AS "matchedReference",
  t.matched_order_uuid AS "matchedOrderUuid", t.reversed_at AS "reversedAt", t.reversal_reason AS "reversalReason",
  t.payout_stopped_at AS "payoutStoppedAt", t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

// The SQL of bank transactions (credits). Every method takes the caller's manager (the consumer's in
// an event handler), so the change commits with what caused it.
// Which order reference a credit was applied to; merchantId is the order's, whoever sent the credit.
export interface CreditLink {
  matchedReference: string;
  matchedOrderUuid: string;
  merchantId: string;
}

// A credit the bank took back, as the reversal found it.
export interface ReversedCredit {
  id: string;
  matchStatus: string;
  matchedOrderUuid: string | null;
  matchedReference: string | null;
  merchantId: string | null;
  amount: string;
}

// What a reversal debit tells about the credit it takes back.
export interface ReversalMatch {
  payerIban: string | null;
  payerIbanIndexes: string[]; // the blind indexes of payerIban under every key of the ring
  amount: string;
  candidateReferences: string[];
  endToEndId: string | null; // null when the bank shows none
  reversalRef: string;
  reason: string;
}

const INSERT_COLUMNS = `id, merchant_id, source, account_iban, account_servicer_ref, statement_message_id,
  suspense_reason, reference_raw, remittance_information, end_to_end_id, candidate_references, amount, currency,
  payer_name, payer_iban, payer_iban_index, payer_name_check, status, match_status, matched_reference,
  matched_order_uuid, reversed_at, reversal_reason, payout_stopped_at, created_at, updated_at`;

const INSERT = `INSERT INTO ${BANK_TRANSACTIONS} (${INSERT_COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
    $22, $23, $24, $25, $26)`;

function insertParams(c: BankTransactionEntity): unknown[] {
  return [
    c.id,
    c.merchantId,
    c.source,
    c.accountIban,
    c.accountServicerRef,
    c.statementMessageId,
    c.suspenseReason,
    c.referenceRaw,
    c.remittanceInformation,
    c.endToEndId,
    c.candidateReferences,
    c.amount,
    c.currency,
    c.payerName,
    c.payerIban,
    c.payerIbanIndex,
    c.payerNameCheck,
    c.status,
    c.matchStatus,
    c.matchedReference,
    c.matchedOrderUuid,
    c.reversedAt,
    c.reversalReason,
    c.payoutStoppedAt,
    c.createdAt,
    c.updatedAt,
  ];
}

// The same values by column name, as jsonb_populate_recordset reads a row.
const INSERT_COLUMN_NAMES = INSERT_COLUMNS.split(',').map((name) => name.trim());

function insertRow(c: BankTransactionEntity): Record<string, unknown> {
  const values = insertParams(c);
  return Object.fromEntries(INSERT_COLUMN_NAMES.map((name, i) => [name, values[i] ?? null]));
}

// A reference read with a credit, and what settling the credit against it needs.
export interface ReferenceWithContext {
  ref: OpenReferenceEntity;
  context: SettlementContext;
}

type ContextRow = OpenReferenceEntity & {
  policyAmount: MerchantPolicyRow['amountPolicy'] | null;
  policyPayerName: MerchantPolicyRow['payerNamePolicy'];
  policyUpdatedBy: string | null;
  policyUpdatedAt: Date | null;
  sealedHolderName: string | null;
};

// The columns and joins of a reference read as refs with its merchant's policy and its holder name.
const CONTEXT_COLUMNS = `refs.*, p.amount_policy AS "policyAmount", p.payer_name_policy AS "policyPayerName",
  p.updated_by AS "policyUpdatedBy", p.updated_at AS "policyUpdatedAt", h.holder_name AS "sealedHolderName"`;
// Each a probe of its key per reference: lateral, with a LIMIT that keeps Postgres from making them
// plain joins. As joins, a plan made while the tables held a few rows hashed or merged every policy
// and every KYC holder at each credit once they had grown (5,000 of each in
// bank-transactions.repository.int-spec.ts).
const CONTEXT_JOINS = `LEFT JOIN LATERAL (
    SELECT * FROM ${MERCHANT_PAYMENT_POLICIES} WHERE merchant_id = refs."merchantId" LIMIT 1) p ON true
  LEFT JOIN LATERAL (SELECT * FROM ${KYC_HOLDERS} WHERE user_uuid = refs."kycUserUuid" LIMIT 1) h ON true`;

function withContext(rows: ContextRow[]): ReferenceWithContext[] {
  return rows.map(
    ({ policyAmount, policyPayerName, policyUpdatedBy, policyUpdatedAt, sealedHolderName, ...ref }) => ({
      ref,
      context: {
        policy:
          policyAmount === null
            ? undefined
            : {
                amountPolicy: policyAmount,
                payerNamePolicy: policyPayerName,
                updatedBy: policyUpdatedBy as string, // NOT NULL in a stored row
                updatedAt: policyUpdatedAt as Date,
              },
        sealedHolderName: sealedHolderName ?? undefined,
      },
    }),
  );
}

@Injectable()
export class BankTransactionsRepository {
  // A sandbox credit, the merchant's own: inserts it and, in the same statement, locks that
  // merchant's references among its candidates (FOR UPDATE: a second credit of a reference waits
  // here for the first) and reads what settling it against one needs (the merchant's stored
  // policies, the order's sealed KYC holder name). The caller holds the candidates' advisory locks
  // since an earlier statement, so this statement sees every order.created that committed first.
  // Run with its generic plan: over the candidates' array, Postgres planned it again at every call
  // (0.49 ms a credit in P3, more than its execution), and every lookup in it is by key. The merchant
  // by `IS NOT DISTINCT FROM` (the same: a sandbox credit always has one), which no index answers:
  // a plan made while the merchant had a reference or two took the merchant's index with `=`, and
  // read every reference the merchant ever opened at each credit after.
  async insertAndLockMerchantReferences(
    db: EntityManager,
    credit: BankTransactionEntity,
    candidates: string[],
  ): Promise<ReferenceWithContext[]> {
    const rows = await withGenericPlan(db, () =>
      queryRows<ContextRow>(
        db,
        `WITH credit AS (${INSERT}),
       refs AS (
         SELECT ${OPEN_REFERENCE_COLUMNS} FROM ${OPEN_REFERENCES}
         WHERE reference = ANY($27::text[]) AND merchant_id IS NOT DISTINCT FROM $2 FOR UPDATE)
       SELECT ${CONTEXT_COLUMNS} FROM refs ${CONTEXT_JOINS}`,
        [...insertParams(credit), candidates],
      ),
    );
    return withContext(rows);
  }

  // insertAndLockMerchantReferences for several sandbox credits in one statement, each locking its
  // merchant's references among its candidates (candidateReferences); the caller holds the advisory
  // locks of all of them. Each credit's references in the credits' order. No two of the credits may
  // name the same reference: the second must see what the first's match did. The references by key
  // alone, as insertAndLockMerchantReferences: no index answers the merchant's `IS NOT DISTINCT FROM`.
  // With its generic plan, so without sequential scans (withGenericPlan): planned at each call, its
  // lateral read of the references became a sequential scan per credit while the table was a few
  // thousand rows (a soak of 5,000 orders: 780,000 rows read).
  async insertManyAndLockMerchantReferences(
    db: EntityManager,
    credits: readonly BankTransactionEntity[],
  ): Promise<ReferenceWithContext[][]> {
    const rows = await withGenericPlan(db, () =>
      queryRows<ContextRow & { creditIndex: number }>(
        db,
        `WITH input AS (
         SELECT * FROM jsonb_populate_recordset(NULL::${BANK_TRANSACTIONS}, $1::jsonb) WITH ORDINALITY AS i
       ), credit AS (
         INSERT INTO ${BANK_TRANSACTIONS} (${INSERT_COLUMNS}) SELECT ${INSERT_COLUMNS} FROM input
       ), refs AS (
         SELECT i.ordinality::int - 1 AS "creditIndex", r.* FROM input i CROSS JOIN LATERAL (
           SELECT ${OPEN_REFERENCE_COLUMNS} FROM ${OPEN_REFERENCES}
           WHERE reference = ANY(i.candidate_references) AND merchant_id IS NOT DISTINCT FROM i.merchant_id
           FOR UPDATE) r)
       SELECT ${CONTEXT_COLUMNS} FROM refs ${CONTEXT_JOINS}`,
        [JSON.stringify(credits.map(insertRow))],
      ),
    );
    const found: ReferenceWithContext[][] = credits.map(() => []);
    const references = withContext(rows.map(({ creditIndex: _index, ...row }) => row));
    references.forEach((f, i) => found[rows[i]?.creditIndex as number]?.push(f));
    return found;
  }

  // A statement credit: inserts it unless it is booked already (same account and AcctSvcrRef:
  // inserted false, nothing locked) and, in the same statement, locks the references among its
  // candidates, any merchant's, with what settling needs (as insertAndLockMerchantReferences, and
  // with its generic plan for the same reason).
  async insertOnceAndLockReferences(
    db: EntityManager,
    credit: BankTransactionEntity,
    candidates: string[],
  ): Promise<{ inserted: boolean; found: ReferenceWithContext[] }> {
    const rows = await withGenericPlan(db, () =>
      queryRows<ContextRow & { inserted: boolean }>(
        db,
        `WITH credit AS (${INSERT} ON CONFLICT DO NOTHING RETURNING id),
       refs AS (
         SELECT ${OPEN_REFERENCE_COLUMNS} FROM ${OPEN_REFERENCES}
         WHERE reference = ANY($27::text[]) AND EXISTS (SELECT 1 FROM credit) FOR UPDATE)
       SELECT EXISTS (SELECT 1 FROM credit) AS inserted, ${CONTEXT_COLUMNS}
       FROM (SELECT 1) AS one LEFT JOIN refs ON true ${CONTEXT_JOINS}`,
        [...insertParams(credit), candidates],
      ),
    );
    return {
      inserted: rows[0]?.inserted ?? false,
      found: withContext(rows.filter((r) => r.reference !== null)),
    };
  }

  async findForUpdate(db: EntityManager, id: string): Promise<BankTransactionEntity | undefined> {
    const [row] = await queryRows<BankTransactionEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t WHERE t.id = $1 FOR UPDATE`,
      [id],
    );
    return row;
  }

  // Pays nothing and waits for the operator (no reference found, say).
  async markSuspense(db: EntityManager, id: string, suspenseReason: string, at: Date): Promise<void> {
    await db.query(`UPDATE ${BANK_TRANSACTIONS} SET suspense_reason = $2, updated_at = $3 WHERE id = $1`, [
      id,
      suspenseReason,
      at,
    ]);
  }

  // The latest booked statement credit, not reversed nor being returned, of the same payer IBAN (its
  // blind index, or the plain IBAN for rows stored before sealing) and amount, naming one of the
  // references or the end-to-end id: marked reversed, locked. undefined when none matches.
  async reverseLatestMatching(db: EntityManager, match: ReversalMatch): Promise<ReversedCredit | undefined> {
    const [row] = await queryRows<ReversedCredit>(
      db,
      `UPDATE ${BANK_TRANSACTIONS} SET reversed_at = now(), reversal_ref = $4, reversal_reason = $5, updated_at = now()
       WHERE id = (
         SELECT id FROM ${BANK_TRANSACTIONS}
         WHERE source = 'STATEMENT' AND status = 'BOOKED' AND reversed_at IS NULL
           AND (payer_iban_index = ANY($7::text[]) OR payer_iban = $1) AND amount = $2
           AND (candidate_references && $3::text[] OR ($6::text IS NOT NULL AND end_to_end_id = $6))
           AND NOT EXISTS (SELECT 1 FROM ${RETURNS} r WHERE r.bank_transaction_id = bank_transactions.id)
         ORDER BY created_at DESC LIMIT 1 FOR UPDATE)
       RETURNING id, match_status AS "matchStatus", matched_order_uuid AS "matchedOrderUuid",
         matched_reference AS "matchedReference", merchant_id AS "merchantId", amount::text AS amount`,
      [
        match.payerIban,
        match.amount,
        match.candidateReferences,
        match.reversalRef,
        match.reason,
        match.endToEndId,
        match.payerIbanIndexes,
      ],
    );
    return row;
  }

  // Credits that pay nothing and wait for the operator (not being returned, not taken back), oldest first.
  async listSuspense(db: EntityManager, limit: number): Promise<BankTransactionEntity[]> {
    return queryRows<BankTransactionEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
       WHERE t.suspense_reason IS NOT NULL AND t.match_status <> 'MATCHED' AND t.reversed_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM ${RETURNS} r WHERE r.bank_transaction_id = t.id)
       ORDER BY t.created_at ASC, t.id ASC
       LIMIT $1`,
      [limit],
    );
  }

  // Credits the bank took back, those that had paid an order first.
  async listReversed(db: EntityManager, limit: number): Promise<BankTransactionEntity[]> {
    return queryRows<BankTransactionEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
       WHERE t.reversed_at IS NOT NULL
       ORDER BY t.match_status = 'MATCHED' DESC, t.reversed_at ASC
       LIMIT $1`,
      [limit],
    );
  }
  // The credit took its reference: the reference becomes MATCHED (a booked credit) or CLOSED (one the
  // bank rejected) and names the credit, and the credit is MATCHED, out of suspense, with the payer
  // name check when one was made (null keeps the stored one). One statement for both rows.
  // With `event`, the outbox row of the match's event is written by the same statement (one round
  // trip for the credit, its reference and the event; the caller's transaction still commits them).
  async markMatched(
    db: EntityManager,
    id: string,
    link: CreditLink,
    match: { referenceStatus: 'MATCHED' | 'CLOSED'; payerNameCheck: PayerNameCheck | null },
    at: Date,
    event?: { table: string; values: OutboxRowValues },
  ): Promise<void> {
    const insertEvent = event
      ? `, event AS (
         INSERT INTO ${event.table} (${OUTBOX_COLUMNS}) VALUES ($8, $9, $10, $11, $12, $13))`
      : '';
    // Nothing here reads what it wrote: it goes with the transaction's next statement or its COMMIT.
    await writeWithNextStatement(
      db,
      `WITH reference AS (
         UPDATE ${OPEN_REFERENCES} SET status = $6, matched_bank_transaction_id = $1, updated_at = $5
         WHERE reference = $2)${insertEvent}
       UPDATE ${BANK_TRANSACTIONS} SET matched_reference = $2, matched_order_uuid = $3, merchant_id = $4,
         match_status = 'MATCHED', suspense_reason = NULL, payer_name_check = COALESCE($7, payer_name_check),
         updated_at = $5
       WHERE id = $1`,
      [
        id,
        link.matchedReference,
        link.matchedOrderUuid,
        link.merchantId,
        at,
        match.referenceStatus,
        match.payerNameCheck,
        ...(event?.values ?? []),
      ],
    );
  }

  // A late or second payment for the reference: it waits in suspense, it does not pay.
  async markDuplicate(
    db: EntityManager,
    id: string,
    link: CreditLink,
    suspenseReason: string,
    at: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE ${BANK_TRANSACTIONS} SET matched_reference = $2, matched_order_uuid = $3, merchant_id = $4,
         match_status = 'DUPLICATE', suspense_reason = $5, updated_at = $6
       WHERE id = $1`,
      [id, link.matchedReference, link.matchedOrderUuid, link.merchantId, suspenseReason, at],
    );
  }

  // Names the reference but pays no order yet (amount or payer name policy): in suspense, with the
  // payer name check when one was made (null keeps the stored one).
  async holdInSuspense(
    db: EntityManager,
    id: string,
    matchedReference: string,
    suspenseReason: string,
    payerNameCheck: PayerNameCheck | null,
    at: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE ${BANK_TRANSACTIONS} SET matched_reference = $2, matched_order_uuid = NULL, suspense_reason = $3,
         payer_name_check = COALESCE($5, payer_name_check), updated_at = $4
       WHERE id = $1`,
      [id, matchedReference, suspenseReason, at, payerNameCheck],
    );
  }

  // Credits of the merchant that arrived before the order.created of this reference, oldest first,
  // locked (the caller holds the reference's advisory lock). `candidate_references @> ARRAY[...]`, not
  // `... = ANY(candidate_references)`: the partial GIN index of unmatched credits answers the first,
  // not the second, which read the merchant's every credit ever booked. Planned at each call
  // (withCustomPlan), as findEarlyStatementCreditsForUpdate, below, and the merchant compared by
  // `IS NOT DISTINCT FROM` (the same here: the argument is never null), which no index answers: the
  // GIN index is then the one way in, not the merchant's index of every credit it ever had.
  async findWaitingForUpdate(
    db: EntityManager,
    merchantId: string,
    reference: string,
  ): Promise<BankTransactionEntity[]> {
    return withCustomPlan(db, () =>
      queryRows<BankTransactionEntity>(
        db,
        `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
         WHERE t.merchant_id IS NOT DISTINCT FROM $1 AND t.match_status = 'UNMATCHED'
           AND t.candidate_references @> ARRAY[$2::text]
         ORDER BY t.created_at ASC, t.id ASC FOR UPDATE`,
        [merchantId, reference],
      ),
    );
  }

  // Statement credits booked before the order.created of the reference they name: in suspense as
  // UNKNOWN_REFERENCE, not being returned. The order's events travel on their own partition, so a
  // quick payer's credit can overtake them. By the GIN index, as findWaitingForUpdate: with `= ANY` it
  // read every credit ever booked, for each order whose credit came first (a soak of 5,000 orders:
  // 6.6 million rows read; docs/performance-journal.md, 2026-12-03 evening). Run for most orders
  // whenever credits overtake their order, so Postgres soon kept one plan for it, made while the
  // table was small, that read the table whole at every call after (1,372 of 1,500 calls in a soak):
  // planned at each call (withCustomPlan). The suspense reason by `IS NOT DISTINCT FROM` (the same for
  // a constant), as the merchant above: with `=`, the plan walked the index of every credit in
  // suspense instead of the GIN index.
  async findEarlyStatementCreditsForUpdate(
    db: EntityManager,
    reference: string,
  ): Promise<BankTransactionEntity[]> {
    return withCustomPlan(db, () =>
      queryRows<BankTransactionEntity>(
        db,
        `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
         WHERE t.source = 'STATEMENT' AND t.match_status = 'UNMATCHED'
           AND t.suspense_reason IS NOT DISTINCT FROM 'UNKNOWN_REFERENCE'
           AND t.candidate_references @> ARRAY[$1::text]
           AND NOT EXISTS (SELECT 1 FROM ${RETURNS} r WHERE r.bank_transaction_id = t.id)
         ORDER BY t.created_at ASC, t.id ASC FOR UPDATE`,
        [reference],
      ),
    );
  }

  // The credits of a FAILED order that the bank took back after they paid it: their payout was
  // stopped in time. Answers how many were marked (each once).
  async markPayoutStopped(db: EntityManager, orderUuid: string): Promise<number> {
    const stopped = await queryRows(
      db,
      `UPDATE ${BANK_TRANSACTIONS} SET payout_stopped_at = now(), updated_at = now()
       WHERE matched_order_uuid = $1 AND match_status = 'MATCHED' AND reversed_at IS NOT NULL AND payout_stopped_at IS NULL
       RETURNING id`,
      [orderUuid],
    );
    return stopped.length;
  }
}
