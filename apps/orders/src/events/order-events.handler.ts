import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { upsertKycProjection } from '../kyc/kyc-projection';
import { OrderTransitions } from './order-transitions';

// What orders consumes (docs/architecture.md, events). The consumer starts at application bootstrap, after
// every handler is registered here.
@Injectable()
export class OrderEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly transitions: OrderTransitions,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.KycUserRegistered, (event, manager) =>
      upsertKycProjection(manager, {
        uuid: event.data.userUuid,
        merchantId: event.merchantId,
        status: event.data.status,
        statusVersion: 0,
      }),
    );
    this.consumer.on(Topics.KycUserStatusChanged, (event, manager) =>
      upsertKycProjection(manager, {
        uuid: event.data.userUuid,
        merchantId: event.merchantId,
        status: event.data.status,
        statusVersion: event.data.statusVersion,
      }),
    );
    this.consumer.on(Topics.PaymentConfirmed, (event, manager) =>
      this.transitions.recordPayment(event, manager),
    );
    this.consumer.on(Topics.PaymentFailed, (event, manager) => this.transitions.failPayment(event, manager));
    this.consumer.on(Topics.TransferSucceeded, (event, manager) => this.transitions.complete(event, manager));
    this.consumer.on(Topics.TransferFailed, (event, manager) =>
      this.transitions.failTransfer(event, manager),
    );
  }
}
