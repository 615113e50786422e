import { Column, Entity, PrimaryColumn } from 'typeorm';

// The nonce counter of one hot wallet. Its row lock is the queue every signing worker joins.
@Entity({ schema: 'settlement', name: 'signers' })
export class SignerEntity {
  @PrimaryColumn('text')
  address!: string;

  @Column('int', { name: 'chain_id' })
  chainId!: number;

  @Column('bigint', { name: 'next_nonce' })
  nextNonce!: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
