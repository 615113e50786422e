import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

import { AdminActor, recordAdminAction } from '@onramp/persistence';
import { AmountPolicy, DEFAULT_AMOUNT_POLICY, PayerNamePolicy } from '@onramp/payments-domain';

import { PAYMENT_INGEST_CONFIG, PAYMENTS_SCHEMA, PaymentIngestConfig } from '../config';

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

interface Row {
  amount_policy: AmountPolicy;
  payer_name_policy: PayerNamePolicy | null;
  updated_by: string;
  updated_at: Date;
}

// Per-merchant payment rules: what the settler applies to a credit for that merchant's order, and
// what operators read and change (recorded in the admin audit log with the operator).
@Injectable()
export class MerchantPolicies {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(PAYMENT_INGEST_CONFIG) private readonly config: PaymentIngestConfig,
  ) {}

  async get(
    merchantId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<MerchantPaymentPolicy> {
    const rows: Row[] = await manager.query(
      `SELECT amount_policy, payer_name_policy, updated_by, updated_at FROM payments.merchant_payment_policies WHERE merchant_id = $1`,
      [merchantId],
    );
    return this.present(merchantId, rows[0]);
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
      const rows: Row[] = await manager.query(
        `INSERT INTO payments.merchant_payment_policies (merchant_id, amount_policy, payer_name_policy, updated_by)
         VALUES ($1, $2, $3, $4)
         ON CONFLICT (merchant_id) DO UPDATE SET amount_policy = EXCLUDED.amount_policy,
           payer_name_policy = EXCLUDED.payer_name_policy, updated_by = EXCLUDED.updated_by, updated_at = now()
         RETURNING amount_policy, payer_name_policy, updated_by, updated_at`,
        [merchantId, amount, name, actor.operator],
      );
      const after = this.present(merchantId, rows[0]);
      await recordAdminAction(manager, PAYMENTS_SCHEMA, actor, {
        action: 'payment-policy.set',
        target: merchantId,
        before: { amountPolicy: before.amountPolicy, payerNamePolicy: before.payerNamePolicy },
        after: { amountPolicy: after.amountPolicy, payerNamePolicy: after.payerNamePolicy },
      });
      return after;
    });
  }

  private present(merchantId: string, row: Row | undefined): MerchantPaymentPolicy {
    return {
      merchantId,
      amountPolicy: row?.amount_policy ?? DEFAULT_AMOUNT_POLICY,
      payerNamePolicy: row?.payer_name_policy ?? this.config.payerNamePolicy,
      payerNamePolicyIsDefault: !row?.payer_name_policy,
      updatedBy: row?.updated_by ?? null,
      updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    };
  }
}
