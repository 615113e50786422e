import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { RecordDeliveryUseCase } from '../deliveries/record-delivery.usecase';

// order.completed / order.failed become webhook deliveries; the dispatcher loop picks them up.
@Injectable()
export class OrderOutcomeEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly recordDelivery: RecordDeliveryUseCase,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.OrderCompleted, (event, manager) => this.recordDelivery.execute(manager, event));
    this.consumer.on(Topics.OrderFailed, (event, manager) => this.recordDelivery.execute(manager, event));
  }
}
