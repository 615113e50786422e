import { EntityManager } from 'typeorm';

import { BankTransactionEntity } from '../bank/bank-transaction.entity';
import { OpenReferenceEntity } from '../references/open-reference.entity';

// A credit and the order.created of its reference can commit at the same time, each unable to see
// the other: the credit would stay UNMATCHED forever. Both sides first take a transaction-scoped
// advisory lock per reference (sorted, so two credits never deadlock), then re-read.
export async function lockReferenceKeys(manager: EntityManager, references: string[]): Promise<void> {
  for (const reference of [...new Set(references)].sort()) {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('payments.reference'), hashtext($1))`, [
      reference,
    ]);
  }
}

// The row lock makes two simultaneous credits for one reference take turns: the second sees MATCHED.
export async function findMerchantReferencesForUpdate(
  manager: EntityManager,
  merchantId: string,
  references: string[],
): Promise<OpenReferenceEntity[]> {
  if (references.length === 0) return [];
  return manager
    .createQueryBuilder(OpenReferenceEntity, 'r')
    .setLock('pessimistic_write')
    .where('r.merchantId = :merchantId', { merchantId })
    .andWhere('r.reference = ANY(:references)', { references })
    .getMany();
}

export async function findReferenceForUpdate(
  manager: EntityManager,
  reference: string,
): Promise<OpenReferenceEntity | null> {
  return manager
    .createQueryBuilder(OpenReferenceEntity, 'r')
    .setLock('pessimistic_write')
    .where('r.reference = :reference', { reference })
    .getOne();
}

// Credits of the merchant that arrived before the order.created of this reference, oldest first.
export async function findWaitingCreditsForUpdate(
  manager: EntityManager,
  merchantId: string,
  reference: string,
): Promise<BankTransactionEntity[]> {
  return manager
    .createQueryBuilder(BankTransactionEntity, 't')
    .setLock('pessimistic_write')
    .where('t.merchantId = :merchantId', { merchantId })
    .andWhere(`t.matchStatus = 'UNMATCHED'`)
    .andWhere(':reference = ANY(t.candidate_references)', { reference })
    .orderBy('t.createdAt', 'ASC')
    .addOrderBy('t.id', 'ASC')
    .getMany();
}

// A statement credit has no merchant: it may pay any merchant's order its reference names.
export async function findReferencesForUpdate(
  manager: EntityManager,
  references: string[],
): Promise<OpenReferenceEntity[]> {
  if (references.length === 0) return [];
  return manager
    .createQueryBuilder(OpenReferenceEntity, 'r')
    .setLock('pessimistic_write')
    .where('r.reference = ANY(:references)', { references })
    .getMany();
}

// Statement credits booked before the order.created of the reference they name: in suspense as
// UNKNOWN_REFERENCE, not being returned. The order's events travel on their own partition, so a
// quick payer's credit can overtake them.
export async function findEarlyStatementCreditsForUpdate(
  manager: EntityManager,
  reference: string,
): Promise<BankTransactionEntity[]> {
  return manager
    .createQueryBuilder(BankTransactionEntity, 't')
    .setLock('pessimistic_write')
    .where(
      `t.source = 'STATEMENT' AND t.matchStatus = 'UNMATCHED' AND t.suspenseReason = 'UNKNOWN_REFERENCE'`,
    )
    .andWhere(':reference = ANY(t.candidate_references)', { reference })
    .andWhere('NOT EXISTS (SELECT 1 FROM payments.returns r WHERE r.bank_transaction_id = t.id)')
    .orderBy('t.createdAt', 'ASC')
    .addOrderBy('t.id', 'ASC')
    .getMany();
}
