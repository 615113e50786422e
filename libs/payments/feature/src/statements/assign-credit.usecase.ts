import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { compareDecimal } from '@onramp/money';
import { conflict, notFound, ProblemException } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';
import { OutboxRelay } from '@onramp/messaging';

import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig, PAYMENTS_SCHEMA } from '../config';
import { CreditMatcher } from '../matching/credit-matcher';
import { OpenReferencesRepository } from '../references/open-references.repository';
import { ReturnsRepository } from './returns.repository';
import { lockCreditInSuspense } from './suspense-credit';

// The operator decides that a suspense credit pays an order (a typo in the reference, an amount
// the policy held back). It pays exactly once: the credit and the order's reference are locked,
// only an unmatched credit and an OPEN reference qualify, and a unique index allows one matched
// credit per order. The maximum order amount holds here too.
@Injectable()
export class AssignCreditUseCase {
  constructor(
    private readonly dataSource: DataSource,
    private readonly matcher: CreditMatcher,
    private readonly relay: OutboxRelay,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly references: OpenReferencesRepository,
    private readonly credits: BankTransactionsRepository,
    private readonly returns: ReturnsRepository,
  ) {}

  async execute(
    creditId: string,
    orderUuid: string,
    actor: AdminActor,
  ): Promise<{ id: string; orderUuid: string; payedAmount: string }> {
    const result = await this.dataSource.transaction(async (manager) => {
      const ref = await this.references.findByOrder(manager, orderUuid);
      if (!ref) throw notFound('order not found (no payment reference known for it)');
      await this.references.lockKeys(manager, [ref.reference]);
      const credit = await lockCreditInSuspense(this.credits, manager, creditId, {
        reversed: 'the bank took this credit back (reversal)',
        notInSuspense: 'only a booked credit waiting in suspense can be assigned',
      });
      if (await this.returns.existsForCredit(manager, credit.id))
        throw conflict('this credit is being returned to its payer');
      const locked = await this.references.findForUpdate(manager, ref.reference);
      // references are never deleted: the row read above is still there
      if (!locked) throw new Error(`open reference ${ref.reference} vanished`);
      if (locked.status !== 'OPEN') throw conflict('the order is already paid or finished');
      if (compareDecimal(credit.amount, this.config.maxAmount) > 0) {
        throw new ProblemException(
          422,
          `a credit above ORDER_MAX_AMOUNT (${this.config.maxAmount} EUR) never pays an order; return it`,
        );
      }
      // the match takes the credit out of suspense
      const outcome = await this.matcher.apply(manager, credit, locked, credit.amount);
      if (outcome !== 'confirmed') throw conflict('the credit could not pay the order');
      await recordAdminAction(manager, PAYMENTS_SCHEMA, actor, {
        action: 'bank-transaction.assign',
        target: credit.id,
        before: { suspense: true },
        after: { orderUuid, payedAmount: credit.amount },
      });
      return { id: credit.id, orderUuid, payedAmount: credit.amount };
    });
    this.relay.nudge();
    return result;
  }
}
