import { Column, Entity, PrimaryColumn } from 'typeorm';

export const REFERENCE_STATUSES = ['OPEN', 'MATCHED', 'CLOSED', 'EXPIRED'] as const;
export type ReferenceStatus = (typeof REFERENCE_STATUSES)[number];

// The payment reference of one order, normalized (uppercase, no spaces). OPEN until a credit
// matches it (MATCHED), the order ends (CLOSED) or stays unpaid past ORDER_TTL (EXPIRED); only an
// OPEN reference can confirm a payment. created_at is the order's creation (its order.created).
@Entity({ schema: 'payments', name: 'open_references' })
export class OpenReferenceEntity {
  @PrimaryColumn('text')
  reference!: string;

  @Column('uuid', { name: 'order_uuid' })
  orderUuid!: string;

  @Column('uuid', { name: 'merchant_id' })
  merchantId!: string;

  @Column('numeric', { precision: 20, scale: 2 })
  amount!: string;

  @Column('text')
  currency!: string;

  // the order's KYC user, whose name the payer name policy compares with (null: opened before it was kept)
  @Column('uuid', { name: 'kyc_user_uuid', nullable: true })
  kycUserUuid!: string | null;

  @Column('text', { name: 'recipient_address' })
  recipientAddress!: string;

  @Column('text')
  status!: ReferenceStatus;

  @Column('uuid', { name: 'matched_bank_transaction_id', nullable: true })
  matchedBankTransactionId!: string | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}
