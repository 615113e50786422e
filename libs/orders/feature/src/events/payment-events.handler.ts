import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { OrderTransitions } from './order-transitions';

// payment.* from payment-ingest: a confirmed payment is recorded on the order (it stays CREATED
// until the tokens are sent); a failed one fails the order.
@Injectable()
export class PaymentEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly transitions: OrderTransitions,
  ) {}

  onModuleInit(): void {
    this.consumer.on(
      Topics.PaymentConfirmed,
      (event, manager) => this.transitions.recordPayment(event, manager),
      {
        prepareRun: (events, manager) => this.transitions.recordPaymentRun(events, manager),
      },
    );
    this.consumer.on(Topics.PaymentFailed, (event, manager) => this.transitions.failPayment(event, manager));
  }
}
