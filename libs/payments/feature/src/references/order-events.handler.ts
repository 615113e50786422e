import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, OrderCreatedV1, OrderOutcomeFields, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { normalizeReference } from '@onramp/sepa';

import { BankTransactionsRepository } from '../bank/bank-transactions.repository';
import { CreditMatcher } from '../matching/credit-matcher';
import { StatementCreditSettler } from '../matching/statement-credit-settler';
import {
  CloseOutcome,
  NewOpenReference,
  OpenOutcome,
  OpenReferencesRepository,
  OrderReference,
  referenceLock,
} from './open-references.repository';

type OrderCreated = EventEnvelope<'order.created', OrderCreatedV1>;

// Nobody waits on a reference being opened or closed (a credit that comes first waits for its
// order.created, as it would for one still in flight), so under load these events gather for up to
// this long into one transaction: at 600-700 orders a second, batches of 8 instead of 5 and 0.12
// statements an order instead of 0.4 (docs/performance-journal.md, 2026-12-02 evening). A quiet
// consumer still opens a reference at once.
const REFERENCE_EVENTS_MAY_WAIT_MS = 25;

// Learns the references to expect from the orders service. Every handler is idempotent: the
// consumer records the event id in the same transaction, and the writes themselves are upserts.
@Injectable()
export class OrderEventsHandler implements OnModuleInit {
  private readonly log = new Logger(OrderEventsHandler.name);
  // What a run's one insert found for each of its events, by the transaction's manager: a batch
  // that rolls back takes its manager, and with it these outcomes, along.
  private readonly openedInRun = new WeakMap<EntityManager, Map<string, OpenOutcome>>();
  // The same for a run of order.completed: what its one statement found for each event it closed.
  private readonly closedInRun = new WeakMap<EntityManager, Map<string, CloseOutcome>>();

  constructor(
    private readonly consumer: EventConsumer,
    private readonly matcher: CreditMatcher,
    private readonly settler: StatementCreditSettler,
    private readonly references: OpenReferencesRepository,
    private readonly credits: BankTransactionsRepository,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.OrderCreated, (event, manager) => this.onOrderCreated(event, manager), {
      locksFirst: (event) => [referenceLock(normalizeReference(event.data.reference))],
      prepareRun: (events, manager) => this.openRun(events, manager),
      mayWaitMs: REFERENCE_EVENTS_MAY_WAIT_MS,
    });
    this.consumer.on(Topics.OrderCompleted, (event, manager) => this.closeReference(event, manager), {
      prepareRun: (events, manager) => this.closeRun(events, manager),
      mayWaitMs: REFERENCE_EVENTS_MAY_WAIT_MS,
    });
    this.consumer.on(Topics.OrderFailed, (event, manager) => this.closeReference(event, manager), {
      mayWaitMs: REFERENCE_EVENTS_MAY_WAIT_MS,
    });
  }

  // Opens the reference, then settles any credit of that merchant that arrived before this event.
  // The common case (no credit names the reference yet) costs one statement after the inbox mark,
  // which took the reference's advisory lock (locksFirst): the insert that also probes for waiting
  // credits. Only when the probe finds one, or the
  // reference was there already, the row lock and the locked reads below run.
  async onOrderCreated(event: OrderCreated, manager: EntityManager): Promise<void> {
    const { data } = event;
    const reference = normalizeReference(data.reference);
    await this.references.lockKeys(manager, [reference]);
    const inRun = this.openedInRun.get(manager);
    const known = inRun?.get(event.id);
    inRun?.delete(event.id);
    const opened = known ?? (await this.references.insertOpenProbingCredits(manager, newReferenceOf(event)));
    if (opened === 'opened') return;
    const ref = await this.references.findForUpdate(manager, reference);
    if (!ref || ref.orderUuid !== data.orderUuid) {
      this.log.error(
        `order ${data.orderUuid}: reference ${reference} already belongs to another order; not opened`,
      );
      return;
    }
    const waiting = await this.credits.findWaitingForUpdate(manager, ref.merchantId, reference);
    for (const credit of waiting) {
      const outcome =
        credit.status === 'BOOKED' && ref.status === 'OPEN'
          ? await this.settler.settle(manager, credit, ref)
          : await this.matcher.apply(manager, credit, ref);
      this.log.log(`credit ${credit.id} received before order ${ref.orderUuid} matched: ${outcome}`);
    }
    for (const credit of await this.credits.findEarlyStatementCreditsForUpdate(manager, reference)) {
      const outcome = await this.settler.settle(manager, credit, ref);
      this.log.log(
        `statement credit ${credit.id} booked before order ${ref.orderUuid} was known: ${outcome}`,
      );
    }
  }

  // Several order.created in a row in one batch: their references opened (and probed) in one
  // statement, each handler then reads its outcome instead of inserting its own.
  private async openRun(events: readonly OrderCreated[], manager: EntityManager): Promise<void> {
    const outcomes = await this.references.insertManyOpenProbingCredits(manager, events.map(newReferenceOf));
    const inRun = this.openedInRun.get(manager) ?? new Map<string, OpenOutcome>();
    events.forEach((event, i) => inRun.set(event.id, outcomes[i]!));
    this.openedInRun.set(manager, inRun);
  }

  // Several order.completed in a row in one batch: their references closed in one statement, each
  // handler then reads its outcome instead of closing its own (a second event of one order closes
  // alone, after the first, as one by one).
  private async closeRun(
    events: ReadonlyArray<EventEnvelope<'order.completed', OrderOutcomeFields>>,
    manager: EntityManager,
  ): Promise<void> {
    const refs = events.map((e) =>
      orderReferenceOf(e.data, e.merchantId, normalizeReference(e.data.reference)),
    );
    const outcomes = await this.references.closeManyForOrders(manager, refs, new Date());
    const inRun = this.closedInRun.get(manager) ?? new Map<string, CloseOutcome>();
    events.forEach((event, i) => {
      const outcome = outcomes[i];
      if (outcome) inRun.set(event.id, outcome);
    });
    this.closedInRun.set(manager, inRun);
  }

  // A FAILED order sent no USDC: a credit of it that the bank took back (payment.reversed) had its
  // payout stopped in time, so it is no longer an unfunded payout for the operator to chase.
  private async notePayoutStopped(manager: EntityManager, orderUuid: string): Promise<void> {
    const stopped = await this.credits.markPayoutStopped(manager, orderUuid);
    if (stopped > 0) this.log.log(`order ${orderUuid} FAILED: the payout of its reversed credit was stopped`);
  }

  // A finished order takes no more money. If this overtakes its order.created (another topic), a
  // CLOSED row is written first and order.created then leaves it alone.
  async closeReference(
    event: EventEnvelope<'order.completed' | 'order.failed', OrderOutcomeFields>,
    manager: EntityManager,
  ): Promise<void> {
    const { data, merchantId } = event;
    if (event.type === Topics.OrderFailed) await this.notePayoutStopped(manager, data.orderUuid);
    // An EXPIRED reference stays so: a late credit is then told apart from a second payment.
    const reference = normalizeReference(data.reference);
    const inRun = this.closedInRun.get(manager);
    const known = inRun?.get(event.id);
    inRun?.delete(event.id);
    const closed =
      known ??
      (await this.references.closeForOrder(
        manager,
        orderReferenceOf(data, merchantId, reference),
        new Date(),
      ));
    if (closed === 'taken') {
      this.log.error(
        `order ${data.orderUuid} ended, but its reference ${reference} belongs to another order; nothing closed`,
      );
    }
  }
}

// created_at is the order's creation, from which ORDER_TTL counts (not when its event arrived).
function newReferenceOf(event: OrderCreated): NewOpenReference {
  const { data, merchantId } = event;
  return {
    ...orderReferenceOf(data, merchantId, normalizeReference(data.reference)),
    createdAt: new Date(event.occurredAt),
    kycUserUuid: data.kycUserUuid,
  };
}

// The reference row an order event describes (order.created opens it, order.completed/failed close it).
function orderReferenceOf(
  data: Pick<OrderReference, 'orderUuid' | 'amount' | 'currency' | 'recipientAddress'>,
  merchantId: string,
  reference: string,
): OrderReference {
  const { orderUuid, amount, currency, recipientAddress } = data;
  return { reference, orderUuid, merchantId, amount, currency, recipientAddress };
}
