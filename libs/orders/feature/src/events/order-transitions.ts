import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import {
  EventEnvelope,
  InvalidEventError,
  PaymentConfirmedV1,
  PaymentFailedV1,
  Topics,
  TransferFailedV1,
  TransferSucceededV1,
} from '@onramp/contracts';
import { OutboxWriter } from '@onramp/messaging';
import { canTransition, Clock } from '@onramp/orders-domain';

import { OrderEntity } from '../orders/order.entity';
import { OrdersRepository } from '../orders/orders.repository';
import { FailureFacts, orderCompletedData, orderFailedData } from './order-outcome-events';

export const CLOCK = Symbol('CLOCK');

type Envelope<T> = EventEnvelope<string, T> & { data: T & { orderUuid: string } };

// Moves orders along CREATED -> COMPLETED | FAILED as settlement facts arrive. Every method runs in
// the consumer's transaction (inbox mark + effect + outgoing event commit together). The order row is
// locked and the update is conditional on CREATED, so a race cannot complete and fail one order;
// an event for an order already terminal changes nothing.
@Injectable()
export class OrderTransitions {
  private readonly log = new Logger(OrderTransitions.name);

  constructor(
    private readonly outbox: OutboxWriter,
    private readonly orders: OrdersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // The money arrived; the order stays CREATED until the tokens are sent.
  async recordPayment(event: Envelope<PaymentConfirmedV1>, manager: EntityManager): Promise<void> {
    const order = await this.lockOrder(manager, event);
    if (order.status !== 'CREATED') return this.ignore(event, order);
    await this.orders.recordPayment(manager, order.uuid, event.data, this.clock());
  }

  async complete(event: Envelope<TransferSucceededV1>, manager: EntityManager): Promise<void> {
    const order = await this.lockOrder(manager, event);
    if (!canTransition(order.status, 'COMPLETED')) return this.ignore(event, order);
    const d = event.data;
    if (d.recipientAddress.toLowerCase() !== order.recipientAddress.toLowerCase()) {
      this.log.error(
        `transfer for order ${order.uuid} went to ${d.recipientAddress}, not the order's address`,
      );
    }
    const now = this.clock();
    const data = orderCompletedData(order, d, now);
    const moved = await this.orders.markCompleted(
      manager,
      order.uuid,
      {
        payedAmount: d.payedAmount,
        payerAccountHolderName: d.payerAccountHolderName,
        sentTokenAmount: d.sentTokenAmount,
        transactionHash: d.transactionHash,
        fxRateBase: d.fxRateBase,
        fxRateEffective: d.fxRateEffective,
        fxRateUpdatedAt: new Date(d.fxRateUpdatedAt),
      },
      now,
    );
    if (!moved) return this.ignore(event, order);
    await this.record(manager, order, 'COMPLETED', 'USDC transfer succeeded', event.id, now);
    await this.outbox.append(manager, {
      type: Topics.OrderCompleted,
      key: order.uuid,
      merchantId: order.merchantId,
      data,
    });
  }

  async failPayment(event: Envelope<PaymentFailedV1>, manager: EntityManager): Promise<void> {
    await this.fail(event, manager, {
      payedAmount: event.data.payedAmount,
      reason: event.data.reason,
      transactionHash: '',
    });
  }

  async failTransfer(event: Envelope<TransferFailedV1>, manager: EntityManager): Promise<void> {
    const { payedAmount, reason, transactionHash } = event.data;
    await this.fail(event, manager, { payedAmount, reason, transactionHash });
  }

  private async fail(event: Envelope<object>, manager: EntityManager, facts: FailureFacts): Promise<void> {
    const order = await this.lockOrder(manager, event);
    if (!canTransition(order.status, 'FAILED')) return this.ignore(event, order);
    const now = this.clock();
    const data = orderFailedData(order, facts, now);
    const moved = await this.orders.markFailed(
      manager,
      order.uuid,
      {
        payedAmount: facts.payedAmount,
        transactionHash: facts.transactionHash || null,
        failureReason: facts.reason,
      },
      now,
    );
    if (!moved) return this.ignore(event, order);
    await this.record(manager, order, 'FAILED', facts.reason, event.id, now);
    await this.outbox.append(manager, {
      type: Topics.OrderFailed,
      key: order.uuid,
      merchantId: order.merchantId,
      data,
    });
  }

  private async lockOrder(manager: EntityManager, event: Envelope<object>): Promise<OrderEntity> {
    const uuid = event.data.orderUuid;
    const order = await this.orders.findForUpdate(manager, uuid);
    // Dead-lettered at once (no retries): no amount of waiting makes these valid.
    if (!order) throw new InvalidEventError(`${event.type} ${event.id} names an unknown order ${uuid}`);
    if (order.merchantId !== event.merchantId)
      throw new InvalidEventError(`${event.type} ${event.id} names another merchant's order`);
    return order;
  }

  private async record(
    manager: EntityManager,
    order: OrderEntity,
    to: 'COMPLETED' | 'FAILED',
    reason: string,
    eventId: string,
    at: Date,
  ): Promise<void> {
    await this.orders.appendStatusChange(manager, {
      orderUuid: order.uuid,
      fromStatus: order.status,
      toStatus: to,
      reason,
      eventId,
      at,
    });
  }

  private ignore(event: Envelope<object>, order: OrderEntity): void {
    this.log.log(`${event.type} ${event.id} ignored: order ${order.uuid} is already ${order.status}`);
  }
}
