import { Column, Entity, PrimaryColumn } from 'typeorm';

import { OrderStatus } from '@onramp/orders-domain';

// NUMERIC columns come back as strings: money stays exact from the database to the wire.
@Entity({ schema: 'orders', name: 'orders' })
export class OrderEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId!: string;

  @Column({ name: 'kyc_user_uuid', type: 'uuid' })
  kycUserUuid!: string;

  @Column({ type: 'numeric', precision: 20, scale: 2 })
  amount!: string;

  @Column({ type: 'text' })
  currency!: 'EUR';

  @Column({ name: 'recipient_address', type: 'text' })
  recipientAddress!: string;

  @Column({ type: 'text' })
  reference!: string;

  @Column({ type: 'text' })
  iban!: string;

  @Column({ type: 'text' })
  bic!: string;

  // the account holder of iban (null for orders created before it was recorded)
  @Column({ name: 'beneficiary_name', type: 'text', nullable: true })
  beneficiaryName!: string | null;

  @Column({ type: 'text' })
  status!: OrderStatus;

  @Column({ name: 'payed_amount', type: 'numeric', precision: 20, scale: 2, nullable: true })
  payedAmount!: string | null;

  // Sealed by payment-ingest under the payer-data ring for this order: kept and passed on as it
  // arrived; this service holds no key to open it (docs/security.md, PII at rest).
  @Column({ name: 'payer_account_holder_name', type: 'text', nullable: true })
  payerAccountHolderName!: string | null;

  @Column({ name: 'sent_token_amount', type: 'numeric', precision: 30, scale: 6, nullable: true })
  sentTokenAmount!: string | null;

  @Column({ name: 'transaction_hash', type: 'text', nullable: true })
  transactionHash!: string | null;

  @Column({ name: 'fx_rate_base', type: 'numeric', nullable: true })
  fxRateBase!: string | null;

  @Column({ name: 'fx_rate_effective', type: 'numeric', nullable: true })
  fxRateEffective!: string | null;

  @Column({ name: 'fx_rate_updated_at', type: 'timestamptz', nullable: true })
  fxRateUpdatedAt!: Date | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  @Column({ name: 'failed_at', type: 'timestamptz', nullable: true })
  failedAt!: Date | null;
}

// What an order.completed / order.failed says about the order itself: fixed when it was created.
export type OrderFacts = Pick<
  OrderEntity,
  'uuid' | 'merchantId' | 'kycUserUuid' | 'amount' | 'currency' | 'reference' | 'recipientAddress'
>;
