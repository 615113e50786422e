import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { AdminActor, recordAdminAction } from '@onramp/persistence';
import { AmountPolicy, DEFAULT_AMOUNT_POLICY, PayerNamePolicy } from '@onramp/payments-domain';

import { PAYMENT_INGEST_CONFIG, PAYMENTS_SCHEMA, PaymentIngestConfig } from '../config';
import { MerchantPoliciesRepository, MerchantPolicyRow } from './merchant-policies.repository';

export interface MerchantPaymentPolicy {
  merchantId: string;
  amountPolicy: AmountPolicy;
  payerNamePolicy: PayerNamePolicy;
  payerNamePolicyIsDefault: boolean; // follows PAYER_NAME_POLICY / the mode
  updatedBy: string | null;
  updatedAt: string | null;
}

export interface PolicyChange {
  amountPolicy?: AmountPolicy;
  payerNamePolicy?: PayerNamePolicy | null; // null: back to the default
}

// Per-merchant payment rules: what the settler applies to a credit for that merchant's order, and
// what operators read and change (recorded in the admin audit log with the operator).
@Injectable()
export class MerchantPolicies {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
    private readonly repository: MerchantPoliciesRepository,
  ) {}

  async get(
    merchantId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MerchantPaymentPolicy> {
    return this.present(merchantId, await this.repository.find(manager, merchantId));
  }

  // The policy of a stored row read elsewhere (undefined: none stored, the defaults apply).
  of(merchantId: string, row: MerchantPolicyRow | undefined): MerchantPaymentPolicy {
    return this.present(merchantId, row);
  }

  async set(merchantId: string, change: PolicyChange, actor: AdminActor): Promise<MerchantPaymentPolicy> {
    return this.dataSource.transaction(async (manager) => {
      const before = await this.get(merchantId, manager);
      const amount = change.amountPolicy ?? before.amountPolicy;
      const name =
        change.payerNamePolicy === undefined
          ? before.payerNamePolicyIsDefault
            ? null
            : before.payerNamePolicy
          : change.payerNamePolicy;
      const after = this.present(
        merchantId,
        await this.repository.upsert(manager, merchantId, {
          amountPolicy: amount,
          payerNamePolicy: name,
          updatedBy: actor.operator,
        }),
      );
      await recordAdminAction(manager, PAYMENTS_SCHEMA, actor, {
        action: 'payment-policy.set',
        target: merchantId,
        before: { amountPolicy: before.amountPolicy, payerNamePolicy: before.payerNamePolicy },
        after: { amountPolicy: after.amountPolicy, payerNamePolicy: after.payerNamePolicy },
      });
      return after;
    });
  }

  private present(merchantId: string, row: MerchantPolicyRow | undefined): MerchantPaymentPolicy {
    return {
      merchantId,
      amountPolicy: row?.amountPolicy ?? DEFAULT_AMOUNT_POLICY,
      payerNamePolicy: row?.payerNamePolicy ?? this.config.payerNamePolicy,
      payerNamePolicyIsDefault: !row?.payerNamePolicy,
      updatedBy: row?.updatedBy ?? null,
      updatedAt: row ? new Date(row.updatedAt).toISOString() : null,
    };
  }
}
