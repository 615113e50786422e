import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { getAddress } from 'ethers';
import { EntityManager } from 'typeorm';

import { EventEnvelope, PaymentConfirmedV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { currentTraceparent } from '@onramp/observability';
import { FxQuote, StaleFxRateError } from '@onramp/settlement-domain';

import { FxQuoteService } from '../fx/fx-quote.service';
import { insertPendingUnlessReversed } from '../settlements/settlement.repository';
import { lockOrderPayment, orderPaymentLock, reversalOf } from './payment-reversals.repository';

// payment.confirmed -> one PENDING settlement per order, priced at the current rate. The order
// uuid is the primary key, so a second confirmation of the same order (a redelivery, a second
// credit) finds the row taken and can never create a second transfer.
@Injectable()
export class PaymentConfirmedHandler implements OnModuleInit {
  private readonly log = new Logger(PaymentConfirmedHandler.name);

  constructor(
    private readonly consumer: EventConsumer,
    private readonly fx: FxQuoteService,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.PaymentConfirmed, (event, manager) => this.handle(event, manager), {
      locksFirst: (event) => [orderPaymentLock(event.data.orderUuid)],
    });
  }

  async handle(
    event: EventEnvelope<'payment.confirmed', PaymentConfirmedV1>,
    manager: EntityManager,
  ): Promise<void> {
    const d = event.data;
    // In a statement before the one that reads the reversal (see insertPendingUnlessReversed): the
    // consumer's inbox mark took it (locksFirst), or it takes one here.
    await lockOrderPayment(manager, d.orderUuid);
    let q: (FxQuote & { source: string }) | undefined;
    try {
      q = await this.fx.quote(d.payedAmount);
    } catch (err) {
      if (!(err instanceof StaleFxRateError)) {
        // a reversed payment needs no price: ignored as below, whatever the rate source says
        const reversed = await reversalOf(manager, d.orderUuid);
        if (reversed) return this.ignoreReversed(d.orderUuid, reversed.reason);
        throw err;
      }
      // Never priced with a stale rate, never dropped: the worker prices it once a fresh rate exists.
      this.log.warn(`order ${d.orderUuid}: ${err.message}; settlement stored unpriced`);
    }
    // The reversal check, the settlement and the quote's audit row in one round trip.
    const { reversal, inserted } = await insertPendingUnlessReversed(
      manager,
      {
        orderUuid: d.orderUuid,
        merchantId: event.merchantId,
        bankTransactionId: d.bankTransactionId,
        reference: d.reference,
        recipientAddress: getAddress(d.recipientAddress.toLowerCase()),
        payedAmount: d.payedAmount,
        payerAccountHolderName: d.payerAccountHolderName,
        quote: q,
        // the consumer handles the event in a span of its trace: the worker continues it later
        traceparent: currentTraceparent() ?? null,
      },
      q && this.fx.auditRow(d.orderUuid, d.payedAmount, q),
    );
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
