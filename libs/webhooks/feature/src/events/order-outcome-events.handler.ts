import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { OrderOutcomeEvent } from '../deliveries/order-webhook-body.presenter';
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
    // A run of them in one batch is recorded in one statement, before its first is handled.
    const prepareRun = (events: readonly OrderOutcomeEvent[], manager: EntityManager) =>
      this.recordDelivery.executeRun(manager, events);
    this.consumer.on(Topics.OrderCompleted, (event, manager) => this.recordDelivery.execute(manager, event), {
      locksFirst,
      prepareRun,
    });
    this.consumer.on(Topics.OrderFailed, (event, manager) => this.recordDelivery.execute(manager, event), {
      locksFirst,
      prepareRun,
    });
  }
}
