import { Column, Entity, PrimaryColumn } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

@Entity({ schema: 'kyc', name: 'kyc_users' })
export class KycUserEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId!: string;

  @Column({ name: 'external_id', type: 'text', nullable: true })
  externalId!: string | null;

  @Column({ type: 'text' })
  status!: KycStatus;

  @Column({ name: 'status_reason', type: 'text', nullable: true })
  statusReason!: string | null;

  // How many times the status changed since registration (0): orders keeps the highest.
  @Column({ name: 'status_version', type: 'integer', default: 0 })
  statusVersion!: number;

  // Sealed JSON of KycPii (FieldCipher, associated data = uuid); never readable in the table.
  @Column({ type: 'text' })
  pii!: string;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  // Set when an operator erased the PII (it is then a sealed tombstone): the row is the AML record.
  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt?: Date | null;

  @Column({ name: 'erased_by', type: 'text', nullable: true })
  erasedBy?: string | null;
}
