import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { OrderTransitions } from './order-transitions';

// transfer.* from chain-settlement end the order: COMPLETED with the payout, or FAILED.
@Injectable()
export class TransferEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly transitions: OrderTransitions,
  ) {}

  onModuleInit(): void {
    this.consumer.on(
      Topics.TransferSucceeded,
      (event, manager) => this.transitions.complete(event, manager),
      {
        prepareRun: (events, manager, inEventContext) =>
          this.transitions.completeRun(events, manager, inEventContext),
      },
    );
    this.consumer.on(Topics.TransferFailed, (event, manager) =>
      this.transitions.failTransfer(event, manager),
    );
  }
}
