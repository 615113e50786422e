import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';
import { AmountPolicy, PayerNamePolicy } from '@onramp/payments-domain';

import { MERCHANT_PAYMENT_POLICIES } from '../persistence/payments-tables';

// A merchant's stored policies; payerNamePolicy null: the default (PAYER_NAME_POLICY / the mode).
export interface MerchantPolicyRow {
  amountPolicy: AmountPolicy;
  payerNamePolicy: PayerNamePolicy | null;
  updatedBy: string;
  updatedAt: Date;
}

const COLUMNS = `amount_policy AS "amountPolicy", payer_name_policy AS "payerNamePolicy",
  updated_by AS "updatedBy", updated_at AS "updatedAt"`;

// The SQL of per-merchant payment policies. Every method takes the caller's manager (the settler's
// transaction when a credit is applied, the operator's when a policy changes).
@Injectable()
export class MerchantPoliciesRepository {
  // undefined: the merchant has none stored (the defaults apply)
  async find(db: EntityManager, merchantId: string): Promise<MerchantPolicyRow | undefined> {
    const [row] = await queryRows<MerchantPolicyRow>(
      db,
      `SELECT ${COLUMNS} FROM ${MERCHANT_PAYMENT_POLICIES} WHERE merchant_id = $1`,
      [merchantId],
    );
    return row;
  }

  async upsert(
    db: EntityManager,
    merchantId: string,
    policy: { amountPolicy: AmountPolicy; payerNamePolicy: PayerNamePolicy | null; updatedBy: string },
  ): Promise<MerchantPolicyRow> {
    const [row] = await queryRows<MerchantPolicyRow>(
      db,
      `INSERT INTO ${MERCHANT_PAYMENT_POLICIES} (merchant_id, amount_policy, payer_name_policy, updated_by)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (merchant_id) DO UPDATE SET amount_policy = EXCLUDED.amount_policy,
         payer_name_policy = EXCLUDED.payer_name_policy, updated_by = EXCLUDED.updated_by, updated_at = now()
       RETURNING ${COLUMNS}`,
      [merchantId, policy.amountPolicy, policy.payerNamePolicy, policy.updatedBy],
    );
    return row;
  }
}
