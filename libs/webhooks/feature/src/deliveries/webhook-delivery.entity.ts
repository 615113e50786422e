import { Column, Entity, PrimaryColumn } from 'typeorm';

import { DeliveryStatus } from '@onramp/webhooks-domain';

import { WEBHOOKS_SCHEMA } from '../config';

@Entity({ schema: WEBHOOKS_SCHEMA, name: 'deliveries' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'event_id', type: 'uuid' })
  eventId!: string;

  @Column({ name: 'merchant_id', type: 'uuid' })
  merchantId!: string;

  @Column({ name: 'event_type', type: 'text' })
  eventType!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'text' })
  status!: DeliveryStatus;

  @Column({ type: 'int' })
  attempts!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'retry_from', type: 'timestamptz' })
  retryFrom!: Date;

  @Column({ name: 'last_status_code', type: 'int', nullable: true })
  lastStatusCode!: number | null;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'delivered_at', type: 'timestamptz', nullable: true })
  deliveredAt!: Date | null;
}
