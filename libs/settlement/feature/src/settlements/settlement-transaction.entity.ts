import { Column, Entity, PrimaryColumn } from 'typeorm';

// One signed transaction of a settlement. A stuck one is replaced by another with the same nonce
// and higher fees; every one of them is kept, because any of them may be the one that gets mined.
@Entity({ schema: 'settlement', name: 'settlement_transactions' })
export class SettlementTransactionEntity {
  @PrimaryColumn('text', { name: 'tx_hash' })
  txHash!: string;

  @Column({ type: 'bigint', insert: false, update: false })
  id!: string; // insertion order: the last one is the one to (re-)broadcast

  @Column('uuid', { name: 'order_uuid' })
  orderUuid!: string;

  @Column('text', { name: 'signer_address' })
  signerAddress!: string;

  @Column('bigint')
  nonce!: string;

  @Column('text', { name: 'raw_tx' })
  rawTx!: string;

  @Column('numeric', { name: 'max_fee_per_gas', precision: 78, scale: 0, nullable: true })
  maxFeePerGas!: string | null;

  @Column('numeric', { name: 'max_priority_fee_per_gas', precision: 78, scale: 0, nullable: true })
  maxPriorityFeePerGas!: string | null;

  @Column('numeric', { name: 'gas_price', precision: 78, scale: 0, nullable: true })
  gasPrice!: string | null;

  @Column('timestamptz', { name: 'first_sent_at', nullable: true })
  firstSentAt!: Date | null; // when a node first took it: the stuck clock starts here

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
