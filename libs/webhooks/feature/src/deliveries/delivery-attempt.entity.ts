import { Column, Entity, PrimaryColumn } from 'typeorm';

import { WEBHOOKS_SCHEMA } from '../config';

// One row per HTTP attempt, successful or not: the merchant-visible audit trail of a delivery.
@Entity({ schema: WEBHOOKS_SCHEMA, name: 'delivery_attempts' })
export class DeliveryAttemptEntity {
  @PrimaryColumn({ name: 'delivery_id', type: 'uuid' })
  deliveryId!: string;

  @PrimaryColumn({ name: 'attempt_no', type: 'int' })
  attemptNo!: number;

  @Column({ name: 'status_code', type: 'int', nullable: true })
  statusCode!: number | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'duration_ms', type: 'int' })
  durationMs!: number;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
