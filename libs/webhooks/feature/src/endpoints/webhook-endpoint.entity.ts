import { Column, Entity, PrimaryColumn } from 'typeorm';

import { WEBHOOKS_SCHEMA } from '../config';

// One callback URL per merchant; the signing secret is sealed at rest (FieldCipher, bound to the merchant).
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'endpoints' })
export class WebhookEndpointEntity {
  @PrimaryColumn({ name: 'merchant_id', type: 'uuid' })
  merchantId!: string;

  @Column({ type: 'text' })
  url!: string;

  @Column({ name: 'secret_enc', type: 'text' })
  secretEnc!: string;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt!: Date | null;

  @Column({ name: 'disabled_reason', type: 'text', nullable: true })
  disabledReason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
