import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { uuidv7 } from '@onramp/messaging';

import { lockMerchant } from '../persistence/merchant-lock.repository';
import { OrderOutcomeEvent, webhookBodyOf } from './order-webhook-body.presenter';
import { PayerDataCipher } from './payer-data.cipher';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// One delivery per event id (a redelivered event is a no-op). The body is presented and fixed now:
// every attempt and every manual redelivery sends these same bytes. The payer's name arrives sealed
// and is opened only to present the body, which is stored sealed (bound to the delivery id).
@Injectable()
export class RecordDeliveryUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly payerData: PayerDataCipher,
  ) {}

  async execute(manager: EntityManager, event: OrderOutcomeEvent): Promise<void> {
    // A statement of its own: the insert's snapshot must be taken after the lock is granted (see
    // lockMerchant), or a delivery could miss an endpoint registered while the lock was awaited.
    await lockMerchant(manager, event.merchantId, 'shared');
    const id = uuidv7();
    await this.deliveries.insertOnce(manager, {
      id,
      eventId: event.id,
      merchantId: event.merchantId,
      eventType: event.type,
      orderUuid: event.data.orderUuid,
      body: this.payerData.sealBody(id, webhookBodyOf(this.withPayerNameOpened(event))),
    });
  }

  private withPayerNameOpened(event: OrderOutcomeEvent): OrderOutcomeEvent {
    if (event.type !== Topics.OrderCompleted) return event;
    const { orderUuid, payerAccountHolderName } = event.data;
    return {
      ...event,
      data: { ...event.data, payerAccountHolderName: this.payerData.payerName(orderUuid, payerAccountHolderName) },
    };
  }
}
