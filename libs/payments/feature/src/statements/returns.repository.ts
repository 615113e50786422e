import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { RETURNS } from '../persistence/payments-tables';

// A return as recorded: the creditor's name, IBAN and the pain.001 already sealed by the caller.
export interface NewReturn {
  id: string;
  bankTransactionId: string;
  amount: string;
  currency: string;
  creditorName: string;
  creditorIban: string;
  creditorIbanIndex: string | null;
  originalEndToEndId: string | null;
  reason: string;
  messageId: string;
  pain001: string;
}

// The SQL of returns (money sent back to a payer, one per credit). Every method takes the caller's
// manager, so a return commits with the audit entry or the statement that settles it.
@Injectable()
export class ReturnsRepository {
  async existsForCredit(db: EntityManager, bankTransactionId: string): Promise<boolean> {
    const rows = await queryRows(db, `SELECT id FROM ${RETURNS} WHERE bank_transaction_id = $1`, [
      bankTransactionId,
    ]);
    return rows.length > 0;
  }

  async insertPending(db: EntityManager, r: NewReturn): Promise<void> {
    await db.query(
      `INSERT INTO ${RETURNS} (id, bank_transaction_id, amount, currency, creditor_name, creditor_iban,
         original_end_to_end_id, reason, status, message_id, pain001, creditor_iban_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'RETURN_PENDING', $9, $10, $11)`,
      [
        r.id,
        r.bankTransactionId,
        r.amount,
        r.currency,
        r.creditorName,
        r.creditorIban,
        r.originalEndToEndId,
        r.reason,
        r.messageId,
        r.pain001,
        r.creditorIbanIndex,
      ],
    );
  }

  // The oldest pending return to this creditor (its blind indexes, or the plain IBAN for rows stored
  // before sealing) of this amount, and of this original end-to-end id when the bank shows one:
  // RETURN_PENDING -> RETURNED. Nothing when none matches.
  async settleOldestMatching(
    db: EntityManager,
    debit: { creditorIban: string; creditorIbanIndexes: string[]; amount: string; endToEndId: string | null },
  ): Promise<void> {
    await db.query(
      `UPDATE ${RETURNS} SET status = 'RETURNED', updated_at = now()
       WHERE id = (
         SELECT id FROM ${RETURNS}
         WHERE status = 'RETURN_PENDING' AND (creditor_iban_index = ANY($4::text[]) OR creditor_iban = $1)
           AND amount = $2
           AND ($3::text IS NULL OR original_end_to_end_id = $3)
         ORDER BY created_at LIMIT 1 FOR UPDATE)`,
      [debit.creditorIban, debit.amount, debit.endToEndId, debit.creditorIbanIndexes],
    );
  }

  // The stored (sealed) pain.001 of a return; undefined when there is no such return.
  async findPain001(db: EntityManager, id: string): Promise<string | undefined> {
    const [row] = await queryRows<{ pain001: string }>(db, `SELECT pain001 FROM ${RETURNS} WHERE id = $1`, [
      id,
    ]);
    return row?.pain001;
  }
}
