import { Column, Entity, PrimaryColumn } from 'typeorm';

import { SettlementState } from '@onramp/settlement-domain';

// NUMERIC and BIGINT columns are read back as strings: money and nonces never pass through floats.
@Entity({ schema: 'settlement', name: 'settlements' })
export class SettlementEntity {
  @PrimaryColumn('uuid', { name: 'order_uuid' })
  orderUuid!: string;

  @Column('uuid', { name: 'merchant_id' })
  merchantId!: string;

  @Column('uuid', { name: 'bank_transaction_id' })
  bankTransactionId!: string;

  @Column('text')
  reference!: string;

  @Column('text', { name: 'recipient_address' })
  recipientAddress!: string;

  @Column('numeric', { name: 'payed_amount', precision: 20, scale: 2 })
  payedAmount!: string;

  // Sealed by payment-ingest under the payer-data ring for this order: kept and passed on as it
  // arrived; this service holds no key to open it (docs/security.md, PII at rest).
  @Column('text', { name: 'payer_account_holder_name' })
  payerAccountHolderName!: string;

  @Column('numeric', { name: 'fx_rate_base', nullable: true })
  fxRateBase!: string | null;

  @Column('numeric', { name: 'fx_rate_effective', nullable: true })
  fxRateEffective!: string | null;

  @Column('timestamptz', { name: 'fx_rate_updated_at', nullable: true })
  fxRateUpdatedAt!: Date | null;

  @Column('numeric', { name: 'token_amount', precision: 30, scale: 6, nullable: true })
  tokenAmount!: string | null;

  @Column('numeric', { name: 'token_base_units', precision: 78, scale: 0, nullable: true })
  tokenBaseUnits!: string | null;

  @Column('text')
  state!: SettlementState;

  // W3C traceparent of the payment.confirmed handling that created the row (null before the column).
  @Column('text', { nullable: true })
  traceparent!: string | null;

  @Column('text', { name: 'signer_address', nullable: true })
  signerAddress!: string | null;

  @Column('bigint', { nullable: true })
  nonce!: string | null;

  @Column('text', { name: 'raw_tx', nullable: true })
  rawTx!: string | null;

  @Column('text', { name: 'tx_hash', nullable: true })
  txHash!: string | null;

  @Column('bigint', { name: 'block_number', nullable: true })
  blockNumber!: string | null;

  @Column('text', { name: 'last_error', nullable: true })
  lastError!: string | null;

  @Column('int')
  attempts!: number;

  @Column('timestamptz', { name: 'next_attempt_at' })
  nextAttemptAt!: Date;

  // When its first transaction was signed: the rolling 24 h payout cap sums what was signed since.
  @Column('timestamptz', { name: 'signed_at', nullable: true })
  signedAt!: Date | null;

  // The operator who released it from HELD past its payout caps.
  @Column('text', { name: 'released_by', nullable: true })
  releasedBy!: string | null;

  @Column('timestamptz', { name: 'broadcast_at', nullable: true })
  broadcastAt!: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
