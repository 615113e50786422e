import { Column, Entity, PrimaryColumn } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

@Entity({ schema: 'orders', name: 'kyc_users' })
export class KycUserProjectionEntity {
  @PrimaryColumn('uuid')
  uuid!: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId!: string;

  @Column({ type: 'text' })
  status!: KycStatus;

  @Column({ name: 'status_version', type: 'integer', default: 0 })
  statusVersion!: number;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
