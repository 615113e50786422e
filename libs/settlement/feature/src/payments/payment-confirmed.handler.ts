import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { getAddress } from 'ethers';
import { EntityManager } from 'typeorm';

import { EventEnvelope, PaymentConfirmedV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { currentTraceparent } from '@onramp/observability';
import { FxQuote, StaleFxRateError } from '@onramp/settlement-domain';

import { FxQuoteService } from '../fx/fx-quote.service';
import { FxQuoteRow } from '../fx/fx-quotes.repository';
import {
  insertManyPendingUnlessReversed,
  insertPendingUnlessReversed,
  NewSettlement,
  PendingInsertOutcome,
} from '../settlements/settlement.repository';
import { lockOrderPayment, orderPaymentLock, reversalOf } from './payment-reversals.repository';

type PaymentConfirmed = EventEnvelope<'payment.confirmed', PaymentConfirmedV1>;
type Quote = FxQuote & { source: string };

// payment.confirmed -> one PENDING settlement per order, priced at the current rate. The order
// uuid is the primary key, so a second confirmation of the same order (a redelivery, a second
// credit) finds the row taken and can never create a second transfer.
@Injectable()
export class PaymentConfirmedHandler implements OnModuleInit {
  private readonly log = new Logger(PaymentConfirmedHandler.name);
  // What a run's one statement found for each of its events, by the transaction's manager: a batch
  // that rolls back takes them along.
  private readonly insertedInRun = new WeakMap<EntityManager, Map<string, PendingInsertOutcome>>();

  constructor(
    private readonly consumer: EventConsumer,
    private readonly fx: FxQuoteService,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.PaymentConfirmed, (event, manager) => this.handle(event, manager), {
      locksFirst: (event) => [orderPaymentLock(event.data.orderUuid)],
      prepareRun: (events, manager, inEventContext) => this.handleRun(events, manager, inEventContext),
    });
  }

  async handle(event: PaymentConfirmed, manager: EntityManager): Promise<void> {
    const inRun = this.insertedInRun.get(manager);
    const ran = inRun?.get(event.id);
    inRun?.delete(event.id);
    if (ran) return this.report(event.data, ran);
    const d = event.data;
    // In a statement before the one that reads the reversal (see insertPendingUnlessReversed): the
    // consumer's inbox mark took it (locksFirst), or it takes one here.
    await lockOrderPayment(manager, d.orderUuid);
    let q: Quote | undefined;
    try {
      q = await this.fx.quote(d.payedAmount);
    } catch (err) {
      if (!(err instanceof StaleFxRateError)) {
        // a reversed payment needs no price: ignored as below, whatever the rate source says
        const reversed = await reversalOf(manager, d.orderUuid);
        if (reversed) return this.ignoreReversed(d.orderUuid, reversed.reason);
        throw err;
      }
      this.storedUnpriced(d.orderUuid, err);
    }
    // The reversal check, the settlement and the quote's audit row in one round trip.
    const outcome = await insertPendingUnlessReversed(
      manager,
      // the consumer handles the event in a span of its trace: the worker continues it later
      this.settlementOf(event, q, currentTraceparent() ?? null),
      q && this.fx.auditRow(d.orderUuid, d.payedAmount, q),
    );
    this.report(d, outcome);
  }

  // Several payment.confirmed in a row in one batch (EventConsumer's prepareRun): their settlements
  // in one statement; each handler then reports its answer. An event whose price or address fails
  // otherwise than with a stale rate is left to its handler, which deals with it alone (its reversal,
  // its retries), and so is a later event of the same order.
  async handleRun(
    events: readonly PaymentConfirmed[],
    manager: EntityManager,
    inEventContext: <T>(i: number, work: () => T) => T,
  ): Promise<void> {
    // taken with the inbox marks already (locksFirst): costs nothing
    for (const orderUuid of new Set(events.map((e) => e.data.orderUuid)))
      await lockOrderPayment(manager, orderUuid);
    const taken: PaymentConfirmed[] = [];
    const entries: Array<{ settlement: NewSettlement; fxAudit: FxQuoteRow | undefined }> = [];
    for (let i = 0; i < events.length; i++) {
      const event = events[i]!;
      const d = event.data;
      let q: Quote | undefined;
      try {
        q = await this.fx.quote(d.payedAmount);
      } catch (err) {
        if (!(err instanceof StaleFxRateError)) continue;
        inEventContext(i, () => this.storedUnpriced(d.orderUuid, err));
      }
      let settlement: NewSettlement;
      try {
        settlement = this.settlementOf(
          event,
          q,
          inEventContext(i, () => currentTraceparent() ?? null),
        );
      } catch {
        continue;
      }
      taken.push(event);
      entries.push({ settlement, fxAudit: q && this.fx.auditRow(d.orderUuid, d.payedAmount, q) });
    }
    if (entries.length === 0) return;
    const outcomes = await insertManyPendingUnlessReversed(manager, entries);
    const inRun = this.insertedInRun.get(manager) ?? new Map<string, PendingInsertOutcome>();
    taken.forEach((event, i) => {
      const outcome = outcomes[i];
      if (outcome) inRun.set(event.id, outcome);
    });
    this.insertedInRun.set(manager, inRun);
  }

  private settlementOf(
    event: PaymentConfirmed,
    quote: Quote | undefined,
    traceparent: string | null,
  ): NewSettlement {
    const d = event.data;
    return {
      orderUuid: d.orderUuid,
      merchantId: event.merchantId,
      bankTransactionId: d.bankTransactionId,
      reference: d.reference,
      recipientAddress: getAddress(d.recipientAddress.toLowerCase()),
      payedAmount: d.payedAmount,
      payerAccountHolderName: d.payerAccountHolderName,
      quote,
      traceparent,
    };
  }

  // Never priced with a stale rate, never dropped: the worker prices it once a fresh rate exists.
  private storedUnpriced(orderUuid: string, err: StaleFxRateError): void {
    this.log.warn(`order ${orderUuid}: ${err.message}; settlement stored unpriced`);
  }

  private report(d: PaymentConfirmedV1, { reversal, inserted }: PendingInsertOutcome): void {
    if (reversal) return this.ignoreReversed(d.orderUuid, reversal.reason);
    if (!inserted) {
      this.log.warn(
        `order ${d.orderUuid}: another payment.confirmed (bank transaction ${d.bankTransactionId}) ignored; one payout per order`,
      );
    }
  }

  // The bank took the money back before this confirmation got here: nothing to pay out.
  private ignoreReversed(orderUuid: string, reason: string): void {
    this.log.warn(`order ${orderUuid}: payment.confirmed ignored, the payment was reversed (${reason})`);
  }
}
