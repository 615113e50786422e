import { Column, Entity, PrimaryColumn } from 'typeorm';

export const BANK_TRANSACTION_STATUSES = ['BOOKED', 'REJECTED'] as const;
export type BankTransactionStatus = (typeof BANK_TRANSACTION_STATUSES)[number];

// UNMATCHED: no open reference of the merchant yet (it may still arrive with order.created);
// DUPLICATE: its reference was already matched or closed, so it never pays.
export type MatchStatus = 'MATCHED' | 'UNMATCHED' | 'DUPLICATE';

@Entity({ schema: 'payments', name: 'bank_transactions' })
export class BankTransactionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  // The sandbox caller's merchant; for a statement credit, the merchant of the order it paid
  // (null while it pays nothing).
  @Column('uuid', { name: 'merchant_id', nullable: true })
  merchantId!: string | null;

  @Column('text', { default: 'SANDBOX' })
  source!: 'SANDBOX' | 'STATEMENT';

  // The collection account the money arrived on, and the bank's reference of the booking.
  @Column('text', { name: 'account_iban', nullable: true })
  accountIban!: string | null;

  @Column('text', { name: 'account_servicer_ref', nullable: true })
  accountServicerRef!: string | null;

  @Column('text', { name: 'statement_message_id', nullable: true })
  statementMessageId!: string | null;

  // Why a credit pays nothing and waits for the operator (assign or return); null otherwise.
  @Column('text', { name: 'suspense_reason', nullable: true })
  suspenseReason!: string | null;

  @Column('text', { name: 'reference_raw', nullable: true })
  referenceRaw!: string | null;

  @Column('text', { name: 'remittance_information', nullable: true })
  remittanceInformation!: string | null;

  @Column('text', { name: 'end_to_end_id', nullable: true })
  endToEndId!: string | null;

  // normalized references found in the reference, remittance text and end-to-end id
  @Column('text', { name: 'candidate_references', array: true })
  candidateReferences!: string[];

  @Column('numeric', { precision: 20, scale: 2 })
  amount!: string;

  @Column('text')
  currency!: string;

  // The payer's name and IBAN as stored: sealed under the payer-data ring, bound to this row (open
  // them with PaymentsPayerData where the clear value is needed); rows from before sealing are plain
  // until `npm run rekey`. payer_iban_index finds a credit by IBAN without opening every row.
  @Column('text', { name: 'payer_name' })
  payerName!: string;

  @Column('text', { name: 'payer_iban', nullable: true })
  payerIban!: string | null;

  @Column('text', { name: 'payer_iban_index', nullable: true })
  payerIbanIndex!: string | null;

  // What the payer name policy found (MATCH, MISMATCH, UNKNOWN); null when nothing was compared.
  @Column('text', { name: 'payer_name_check', nullable: true })
  payerNameCheck!: 'MATCH' | 'MISMATCH' | 'UNKNOWN' | null;

  @Column('text')
  status!: BankTransactionStatus;

  @Column('text', { name: 'match_status' })
  matchStatus!: MatchStatus;

  @Column('text', { name: 'matched_reference', nullable: true })
  matchedReference!: string | null;

  @Column('uuid', { name: 'matched_order_uuid', nullable: true })
  matchedOrderUuid!: string | null;

  // Set when a statement shows the bank took this credit back (reversal_ref: its booking reference).
  @Column('timestamptz', { name: 'reversed_at', nullable: true })
  reversedAt!: Date | null;

  @Column('text', { name: 'reversal_reason', nullable: true })
  reversalReason!: string | null;

  // reversed after paying, and its order then FAILED: the payout was stopped before signing
  @Column('timestamptz', { name: 'payout_stopped_at', nullable: true })
  payoutStoppedAt!: Date | null;

  @Column('timestamptz', { name: 'created_at', default: () => 'now()' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' })
  updatedAt!: Date;
}

// What a credit is when first booked, from a statement or the sandbox bank: not matched, its payer's
// name not checked, nothing linked to it and nothing taken back yet.
export const NEWLY_BOOKED = {
  matchStatus: 'UNMATCHED',
  payerNameCheck: null,
  reversedAt: null,
  reversalReason: null,
  payoutStoppedAt: null,
  matchedReference: null,
  matchedOrderUuid: null,
} as const satisfies Partial<BankTransactionEntity>;
