import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { BANK_TRANSACTIONS, RETURNS } from '../persistence/payments-tables';
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

@Injectable()
export class BankTransactionsRepository {
  // The credit paid its reference.
  async markMatched(db: EntityManager, id: string, link: CreditLink, at: Date): Promise<void> {
    await db.query(
      `UPDATE ${BANK_TRANSACTIONS} SET matched_reference = $2, matched_order_uuid = $3, merchant_id = $4,
         match_status = 'MATCHED', updated_at = $5
       WHERE id = $1`,
      [id, link.matchedReference, link.matchedOrderUuid, link.merchantId, at],
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

  // Names the reference but pays no order yet (amount or payer name policy): in suspense.
  async holdInSuspense(
    db: EntityManager,
    id: string,
    matchedReference: string,
    suspenseReason: string,
    at: Date,
  ): Promise<void> {
    await db.query(
      `UPDATE ${BANK_TRANSACTIONS} SET matched_reference = $2, matched_order_uuid = NULL, suspense_reason = $3,
         updated_at = $4
       WHERE id = $1`,
      [id, matchedReference, suspenseReason, at],
    );
  }

  async recordPayerNameCheck(
    db: EntityManager,
    id: string,
    check: 'MATCH' | 'MISMATCH' | 'UNKNOWN',
  ): Promise<void> {
    await db.query(`UPDATE ${BANK_TRANSACTIONS} SET payer_name_check = $2 WHERE id = $1`, [id, check]);
  }

  async clearSuspenseReason(db: EntityManager, id: string): Promise<void> {
    await db.query(`UPDATE ${BANK_TRANSACTIONS} SET suspense_reason = NULL WHERE id = $1`, [id]);
  }

  // Credits of the merchant that arrived before the order.created of this reference, oldest first,
  // locked (the caller holds the reference's advisory lock).
  async findWaitingForUpdate(
    db: EntityManager,
    merchantId: string,
    reference: string,
  ): Promise<BankTransactionEntity[]> {
    return queryRows<BankTransactionEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
       WHERE t.merchant_id = $1 AND t.match_status = 'UNMATCHED' AND $2 = ANY(t.candidate_references)
       ORDER BY t.created_at ASC, t.id ASC FOR UPDATE`,
      [merchantId, reference],
    );
  }

  // Statement credits booked before the order.created of the reference they name: in suspense as
  // UNKNOWN_REFERENCE, not being returned. The order's events travel on their own partition, so a
  // quick payer's credit can overtake them.
  async findEarlyStatementCreditsForUpdate(
    db: EntityManager,
    reference: string,
  ): Promise<BankTransactionEntity[]> {
    return queryRows<BankTransactionEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${BANK_TRANSACTIONS} t
       WHERE t.source = 'STATEMENT' AND t.match_status = 'UNMATCHED' AND t.suspense_reason = 'UNKNOWN_REFERENCE'
         AND $1 = ANY(t.candidate_references)
         AND NOT EXISTS (SELECT 1 FROM ${RETURNS} r WHERE r.bank_transaction_id = t.id)
       ORDER BY t.created_at ASC, t.id ASC FOR UPDATE`,
      [reference],
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
