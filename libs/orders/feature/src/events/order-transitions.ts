import { Inject, Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import {
  EventEnvelope,
  EventType,
  InvalidEventError,
  PaymentConfirmedV1,
  PaymentFailedV1,
  Topics,
  TransferFailedV1,
  TransferSucceededV1,
} from '@onramp/contracts';
import { AppendEvent, OutboxWriter } from '@onramp/messaging';
import { canTransition, Clock, TerminalOrderStatus } from '@onramp/orders-domain';

import { OrderEntity, OrderFacts } from '../orders/order.entity';
import {
  CompletionFacts,
  OrdersRepository,
  OutboxInsert,
  StatusChangeCause,
} from '../orders/orders.repository';
import { OrderFactsCache } from './order-facts.cache';
import { FailureFacts, orderCompletedData, orderFailedData } from './order-outcome-events';

export const CLOCK = Symbol('CLOCK');

type Envelope<T> = EventEnvelope<string, T> & { data: T & { orderUuid: string } };

interface Completion {
  facts: CompletionFacts;
  change: StatusChangeCause;
  event: OutboxInsert;
}

// Moves orders along CREATED -> COMPLETED | FAILED as settlement facts arrive. Every method runs in
// the consumer's transaction (inbox mark + effect + outgoing event commit together). The moves are
// conditional on CREATED (and lock the order row), so a race cannot complete and fail one order; an
// event for an order already terminal changes nothing. One statement per event on the payout path:
// payment.confirmed is the conditional update, which returns the order's fixed facts; the transfer.*
// event that follows builds its outgoing event from them and is the move, its history row and its
// event in one statement. Without the facts at hand it reads the order (locked) first.
@Injectable()
export class OrderTransitions {
  private readonly log = new Logger(OrderTransitions.name);
  private readonly facts = new OrderFactsCache();
  // What a run's one update answered for each of its payment.confirmed events (facts, or null when it
  // did not apply), by the transaction's manager: a batch that rolls back takes them along.
  private readonly recordedInRun = new WeakMap<EntityManager, Map<string, OrderFacts | null>>();
  // The same for a run of transfer.succeeded: whether its one statement moved each order it took.
  private readonly completedInRun = new WeakMap<EntityManager, Map<string, boolean>>();

  constructor(
    private readonly outbox: OutboxWriter,
    private readonly orders: OrdersRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  // The money arrived; the order stays CREATED until the tokens are sent. The update is conditional
  // on the order being this merchant's and CREATED; only when it did not apply is the order read, to
  // tell an unknown or another merchant's order (refused) from one already terminal (ignored).
  async recordPayment(event: Envelope<PaymentConfirmedV1>, manager: EntityManager): Promise<void> {
    const target = { uuid: event.data.orderUuid, merchantId: event.merchantId };
    const inRun = this.recordedInRun.get(manager);
    const ran = inRun?.get(event.id);
    inRun?.delete(event.id);
    const facts =
      ran === undefined ? await this.orders.recordPayment(manager, target, event.data, this.clock()) : ran;
    if (facts) return this.facts.remember(facts);
    const order = await this.lockOrder(manager, event);
    if (order.status !== 'CREATED') return this.ignore(event, order);
    // The order committed after the update's snapshot was taken: update it now that it is locked.
    await this.orders.recordPayment(manager, target, event.data, this.clock());
  }

  // Several payment.confirmed in a row in one batch (EventConsumer's prepareRun): their updates in one
  // statement; each handler then takes its answer instead of sending its own.
  async recordPaymentRun(
    events: ReadonlyArray<Envelope<PaymentConfirmedV1>>,
    manager: EntityManager,
  ): Promise<void> {
    const answers = await this.orders.recordPayments(
      manager,
      events.map((e) => ({
        uuid: e.data.orderUuid,
        merchantId: e.merchantId,
        payedAmount: e.data.payedAmount,
        payerAccountHolderName: e.data.payerAccountHolderName,
      })),
      this.clock(),
    );
    const inRun = this.recordedInRun.get(manager) ?? new Map<string, OrderFacts | null>();
    events.forEach((e, i) => inRun.set(e.id, answers[i] ?? null));
    this.recordedInRun.set(manager, inRun);
  }

  async complete(event: Envelope<TransferSucceededV1>, manager: EntityManager): Promise<void> {
    const inRun = this.completedInRun.get(manager);
    const ran = inRun?.get(event.id);
    inRun?.delete(event.id);
    if (ran !== undefined) return ran ? undefined : this.notMoved(event, manager);
    const order = await this.movable(event, manager, 'COMPLETED');
    if (!order) return;
    const move = this.completion(event, order, this.clock());
    const moved = await this.orders.markCompleted(manager, order.uuid, move.facts, move.change, move.event);
    if (!moved) await this.notMoved(event, manager);
  }

  // Several transfer.succeeded in a row in one batch (EventConsumer's prepareRun): the moves of those
  // whose order's facts are at hand, in one statement; each handler then takes its answer. An event
  // without them (or a later one of the same order) is left to its handler, which reads the order.
  // Its order.completed is prepared in the event's context, so it carries the event's trace.
  async completeRun(
    events: ReadonlyArray<Envelope<TransferSucceededV1>>,
    manager: EntityManager,
    inEventContext: <T>(i: number, work: () => T) => T,
  ): Promise<void> {
    const now = this.clock();
    const taken: Array<{ event: Envelope<TransferSucceededV1>; move: Completion & { uuid: string } }> = [];
    events.forEach((event, i) => {
      const order = this.facts.take(event.data.orderUuid);
      // another merchant's: its handler reads the order and refuses the event, as without the facts
      if (order?.merchantId !== event.merchantId) return;
      taken.push({
        event,
        move: { uuid: order.uuid, ...inEventContext(i, () => this.completion(event, order, now)) },
      });
    });
    if (taken.length === 0) return;
    const answers = await this.orders.markCompletedMany(
      manager,
      taken.map((t) => t.move),
    );
    const inRun = this.completedInRun.get(manager) ?? new Map<string, boolean>();
    taken.forEach((t, i) => {
      const moved = answers[i];
      if (moved !== undefined) inRun.set(t.event.id, moved);
    });
    this.completedInRun.set(manager, inRun);
  }

  // What completing `order` for this event writes: the order's facts, the history row's cause and
  // its order.completed event (prepared in the current context: its trace headers are this one's).
  private completion(event: Envelope<TransferSucceededV1>, order: OrderFacts, now: Date): Completion {
    const d = event.data;
    if (d.recipientAddress.toLowerCase() !== order.recipientAddress.toLowerCase()) {
      this.log.error(
        `transfer for order ${order.uuid} went to ${d.recipientAddress}, not the order's address`,
      );
    }
    return {
      facts: {
        payedAmount: d.payedAmount,
        payerAccountHolderName: d.payerAccountHolderName,
        sentTokenAmount: d.sentTokenAmount,
        transactionHash: d.transactionHash,
        fxRateBase: d.fxRateBase,
        fxRateEffective: d.fxRateEffective,
        fxRateUpdatedAt: new Date(d.fxRateUpdatedAt),
      },
      change: { reason: 'USDC transfer succeeded', eventId: event.id, at: now },
      event: this.outboxRow({
        type: Topics.OrderCompleted,
        key: order.uuid,
        merchantId: order.merchantId,
        data: orderCompletedData(order, d, now),
      }),
    };
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
    const order = await this.movable(event, manager, 'FAILED');
    if (!order) return;
    const now = this.clock();
    const moved = await this.orders.markFailed(
      manager,
      order.uuid,
      {
        payedAmount: facts.payedAmount,
        transactionHash: facts.transactionHash || null,
        failureReason: facts.reason,
      },
      { reason: facts.reason, eventId: event.id, at: now },
      this.outboxRow({
        type: Topics.OrderFailed,
        key: order.uuid,
        merchantId: order.merchantId,
        data: orderFailedData(order, facts, now),
      }),
    );
    if (!moved) await this.notMoved(event, manager);
  }

  // The order's facts if it may move: from payment.confirmed when at hand for this merchant (the
  // move itself is conditional on CREATED), else from the locked order, refused (unknown, another
  // merchant's) or ignored (already terminal) as the state machine says.
  private async movable(
    event: Envelope<object>,
    manager: EntityManager,
    to: TerminalOrderStatus,
  ): Promise<OrderFacts | undefined> {
    const known = this.facts.take(event.data.orderUuid);
    if (known?.merchantId === event.merchantId) return known;
    const order = await this.lockOrder(manager, event);
    if (canTransition(order.status, to)) return order;
    this.ignore(event, order);
    return undefined;
  }

  // The conditional move did not apply: the order is terminal (ignored), or it is not what the
  // facts at hand said (refused by lockOrder). A CREATED order here is a bug: retried, never ignored.
  private async notMoved(event: Envelope<object>, manager: EntityManager): Promise<void> {
    const order = await this.lockOrder(manager, event);
    if (order.status === 'CREATED')
      throw new Error(`${event.type} ${event.id}: order ${order.uuid} is CREATED but did not move`);
    this.ignore(event, order);
  }

  private outboxRow<K extends EventType>(event: AppendEvent<K>): OutboxInsert {
    return { table: this.outbox.table, values: this.outbox.prepare(event).values };
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

  private ignore(event: Envelope<object>, order: OrderEntity): void {
    this.log.log(`${event.type} ${event.id} ignored: order ${order.uuid} is already ${order.status}`);
  }
}
