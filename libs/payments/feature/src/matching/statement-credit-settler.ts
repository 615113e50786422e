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

  async settle(
    manager: EntityManager,
    credit: BankTransactionEntity,
    ref: OpenReferenceEntity,
  ): Promise<'matched' | 'suspense'> {
    if (ref.status !== 'OPEN') {
      await this.matcher.apply(manager, credit, ref); // recorded as DUPLICATE / ORDER_EXPIRED, in suspense
      return 'suspense';
    }
    const hold = (suspenseReason: string) =>
      this.credits.holdInSuspense(manager, credit.id, ref.reference, suspenseReason, new Date());
    const policy = await this.policies.get(ref.merchantId, manager);
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
      (kycUserUuid) => this.holders.findSealedName(manager, kycUserUuid),
      this.payerData,
      policy.payerNamePolicy,
      this.payerData.open('bank-transaction', credit.id, 'payer-name', credit.payerName),
      ref.kycUserUuid,
    );
    if (name.check) await this.credits.recordPayerNameCheck(manager, credit.id, name.check);
    if (name.holds) {
      await hold(name.reason ?? 'PAYER_NAME_MISMATCH');
      return 'suspense';
    }
    if (credit.suspenseReason !== null) {
      await this.credits.clearSuspenseReason(manager, credit.id);
      credit.suspenseReason = null;
    }
    const outcome = await this.matcher.apply(manager, credit, ref, decision.payedAmount);
    return outcome === 'confirmed' ? 'matched' : 'suspense';
  }
}
