import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

import { OrderStatus } from '@onramp/orders-domain';

// Append-only audit of every status an order took, and which event moved it.
@Entity({ schema: 'orders', name: 'order_status_history' })
export class OrderStatusHistoryEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  @Column({ name: 'from_status', type: 'text', nullable: true })
  fromStatus!: OrderStatus | null;

  @Column({ name: 'to_status', type: 'text' })
  toStatus!: OrderStatus;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'event_id', type: 'uuid', nullable: true })
  eventId!: string | null;

  @Column({ type: 'timestamptz' })
  at!: Date;
}
