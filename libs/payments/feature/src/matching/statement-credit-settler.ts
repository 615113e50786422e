import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { decideAmount } from '@onramp/payments-domain';

import { BankTransactionEntity } from '../bank/bank-transaction.entity';
import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { PAYMENT_INGEST_CONFIG, PaymentIngestConfig } from '../config';
import { OpenReferenceEntity } from '../references/open-reference.entity';
import { PaymentsPayerData } from '../payer-data/payer-data.cipher';
import { KycHoldersRepository } from '../payer-names/kyc-holders.repository';
import { checkPayerName } from '../payer-names/payer-name-check';
import { MerchantPolicies } from '../policies/merchant-policies';
import { CreditMatcher } from './credit-matcher';
import { SettlementContext } from './settlement-context';

// What a statement credit does with the order reference it names: pays it, or waits in suspense
// with the reason (order finished or expired, amount policy, payer name policy). Called under the
// reference's advisory and row locks, when the credit is booked and, for a credit booked before
// its order.created arrived, when that event opens the reference.
@Injectable()
export class StatementCreditSettler {
  constructor(
    private readonly matcher: CreditMatcher,
    private readonly policies: MerchantPolicies,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly payerData: PaymentsPayerData,
    private readonly holders: KycHoldersRepository,
    private readonly credits: BankTransactionsRepository,
  ) {}

  // context: the policies and holder name when the caller read them with the reference; else read here.
  async settle(
    manager: EntityManager,
    credit: BankTransactionEntity,
    ref: OpenReferenceEntity,
    context?: SettlementContext,
  ): Promise<'matched' | 'suspense'> {
    if (ref.status !== 'OPEN') {
      await this.matcher.apply(manager, credit, ref); // recorded as DUPLICATE / ORDER_EXPIRED, in suspense
      return 'suspense';
    }
    const hold = (suspenseReason: string) =>
      this.credits.holdInSuspense(
        manager,
        credit.id,
        ref.reference,
        suspenseReason,
        credit.payerNameCheck,
        new Date(),
      );
    const policy = context
      ? this.policies.of(ref.merchantId, context.policy)
      : await this.policies.get(ref.merchantId, manager);
    const decision = decideAmount({
      policy: policy.amountPolicy,
      tolerancePercent: this.config.tolerancePercent,
      orderAmount: ref.amount,
      received: credit.amount,
      minAmount: this.config.minAmount,
      maxAmount: this.config.maxAmount,
    });
    if (!decision.pays) {
      await hold(decision.reason);
      return 'suspense';
    }
    const name = await checkPayerName(
      async (kycUserUuid) =>
        context ? context.sealedHolderName : this.holders.findSealedName(manager, kycUserUuid),
      this.payerData,
      policy.payerNamePolicy,
      this.payerData.open('bank-transaction', credit.id, 'payer-name', credit.payerName),
      ref.kycUserUuid,
    );
    // written with the hold or the match below, not by a statement of its own
    if (name.check) credit.payerNameCheck = name.check;
    if (name.holds) {
      await hold(name.reason ?? 'PAYER_NAME_MISMATCH');
      return 'suspense';
    }
    // the match takes the credit out of suspense
    const outcome = await this.matcher.apply(manager, credit, ref, decision.payedAmount);
    return outcome === 'confirmed' ? 'matched' : 'suspense';
  }
}
