import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { getAddress } from 'ethers';
import { EntityManager } from 'typeorm';

import { EventEnvelope, PaymentConfirmedV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';
import { currentTraceparent } from '@onramp/observability';
import { FxQuote, StaleFxRateError } from '@onramp/settlement-domain';

import { FxQuoteService } from '../fx/fx-quote.service';
import { insertPendingSettlement } from '../settlements/settlement.repository';
import { lockOrderPayment, reversalOf } from './payment-reversals.repository';

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
    this.consumer.on(Topics.PaymentConfirmed, (event, manager) => this.handle(event, manager));
  }

  async handle(
    event: EventEnvelope<'payment.confirmed', PaymentConfirmedV1>,
    manager: EntityManager,
  ): Promise<void> {
    const d = event.data;
    await lockOrderPayment(manager, d.orderUuid);
    const reversed = await reversalOf(manager, d.orderUuid);
    if (reversed) {
      // the bank took the money back before this confirmation got here: nothing to pay out
      this.log.warn(
        `order ${d.orderUuid}: payment.confirmed ignored, the payment was reversed (${reversed.reason})`,
      );
      return;
    }
    let q: (FxQuote & { source: string }) | undefined;
    try {
      q = await this.fx.quote(d.payedAmount);
    } catch (err) {
      if (!(err instanceof StaleFxRateError)) throw err;
      // Never priced with a stale rate, never dropped: the worker prices it once a fresh rate exists.
      this.log.warn(`order ${d.orderUuid}: ${err.message}; settlement stored unpriced`);
    }
    const inserted = await insertPendingSettlement(manager, {
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
    });
    if (!inserted) {
      this.log.warn(
        `order ${d.orderUuid}: another payment.confirmed (bank transaction ${d.bankTransactionId}) ignored; one payout per order`,
      );
      return;
    }
    if (q) await this.fx.log(manager, d.orderUuid, d.payedAmount, q);
  }
}
