import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { RecordDeliveryUseCase } from '../deliveries/record-delivery.usecase';
import { merchantLock } from '../persistence/merchant-lock.repository';

// order.completed / order.failed become webhook deliveries; the dispatcher loop picks them up.
@Injectable()
export class OrderOutcomeEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly recordDelivery: RecordDeliveryUseCase,
  ) {}

  onModuleInit(): void {
    // The merchant's lock comes with the inbox mark (see RecordDeliveryUseCase)
    const locksFirst = (event: { merchantId: string }) => [merchantLock(event.merchantId, 'shared')];
    this.consumer.on(Topics.OrderCompleted, (event, manager) => this.recordDelivery.execute(manager, event), {
      locksFirst,
    });
    this.consumer.on(Topics.OrderFailed, (event, manager) => this.recordDelivery.execute(manager, event), {
      locksFirst,
    });
  }
}
