import { EntityManager } from 'typeorm';

import { conflict, notFound } from '@onramp/http';

import { BankTransactionEntity } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';

// The credit an operator acts on (assigns to an order or returns), locked for the transaction: it must
// exist, must not have been taken back by the bank, and must wait booked in suspense. The two 409s
// name the action, as each endpoint documents them.
export async function lockCreditInSuspense(
  credits: BankTransactionsRepository,
  manager: EntityManager,
  creditId: string,
  conflicts: { reversed: string; notInSuspense: string },
): Promise<BankTransactionEntity> {
  const credit = await credits.findForUpdate(manager, creditId);
  if (!credit) throw notFound('bank transaction not found');
  if (credit.reversedAt) throw conflict(conflicts.reversed);
  if (credit.matchStatus === 'MATCHED' || credit.suspenseReason === null || credit.status !== 'BOOKED') {
    throw conflict(conflicts.notInSuspense);
  }
  return credit;
}
