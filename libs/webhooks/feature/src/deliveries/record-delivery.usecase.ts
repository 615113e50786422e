import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { Topics } from '@onramp/contracts';
import { EventConsumer, uuidv7 } from '@onramp/messaging';

import { DeliveryDispatcher } from '../dispatch/delivery-dispatcher';
import { lockMerchant } from '../persistence/merchant-lock.repository';
import { OrderOutcomeEvent, webhookBodyOf } from './order-webhook-body.presenter';
import { PayerDataCipher } from './payer-data.cipher';
import { ClaimedDelivery, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

// One delivery per event id (a redelivered event is a no-op). The body is presented and fixed now:
// every attempt and every manual redelivery sends these same bytes. The payer's name arrives sealed
// and is opened only to present the body, which is stored sealed (bound to the delivery id). The
// delivery is inserted claimed for this process's dispatcher when it has room (see
// DeliveryDispatcher.reserveHandOff) and handed over after the commit.
@Injectable()
export class RecordDeliveryUseCase {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly payerData: PayerDataCipher,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly consumer: EventConsumer,
  ) {}

  async execute(manager: EntityManager, event: OrderOutcomeEvent): Promise<void> {
    // In a statement before the insert, whose snapshot must be taken after the lock is granted (see
    // lockMerchant), or a delivery could miss an endpoint registered while the lock was awaited. The
    // consumer's inbox mark took it already (locksFirst): then this costs nothing.
    await lockMerchant(manager, event.merchantId, 'shared');
    const id = uuidv7();
    const handOff = this.dispatcher.reserveHandOff(event.merchantId);
    const inserted: { claim?: ClaimedDelivery } = {};
    // Settled when the transaction ends, registered before anything can fail: sent only once it
    // committed, and a reservation of a rolled-back batch is given back.
    this.consumer.afterTransaction(manager, (committed) =>
      this.dispatcher.settleHandOff(event.merchantId, handOff, inserted.claim, committed),
    );
    inserted.claim = await this.deliveries.insertOnce(
      manager,
      {
        id,
        eventId: event.id,
        merchantId: event.merchantId,
        eventType: event.type,
        orderUuid: event.data.orderUuid,
        body: this.payerData.sealBody(id, webhookBodyOf(this.withPayerNameOpened(event))),
      },
      handOff?.leaseMs,
    );
  }

  private withPayerNameOpened(event: OrderOutcomeEvent): OrderOutcomeEvent {
    if (event.type !== Topics.OrderCompleted) return event;
    const { orderUuid, payerAccountHolderName } = event.data;
    return {
      ...event,
      data: {
        ...event.data,
        payerAccountHolderName: this.payerData.payerName(orderUuid, payerAccountHolderName),
      },
    };
  }
}
