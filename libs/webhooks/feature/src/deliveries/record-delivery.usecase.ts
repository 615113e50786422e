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
  // The events of a run recorded by executeRun, by the transaction's manager: a batch that rolls back
  // takes them along.
  private readonly recordedInRun = new WeakMap<EntityManager, Set<string>>();

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly payerData: PayerDataCipher,
    private readonly dispatcher: DeliveryDispatcher,
    private readonly consumer: EventConsumer,
  ) {}

  async execute(manager: EntityManager, event: OrderOutcomeEvent): Promise<void> {
    // Recorded with its run already (executeRun)
    if (this.recordedInRun.get(manager)?.delete(event.id)) return;
    await this.executeRun(manager, [event]);
  }

  // Several order events of one type in a row in one consumer batch (EventConsumer's prepareRun), or
  // one: their deliveries in one statement. Each event's handler then finds its delivery recorded.
  async executeRun(manager: EntityManager, events: readonly OrderOutcomeEvent[]): Promise<void> {
    // In a statement before the insert, whose snapshot must be taken after the lock is granted (see
    // lockMerchant), or a delivery could miss an endpoint registered while the lock was awaited. The
    // consumer's inbox mark took them already (locksFirst): then this costs nothing.
    for (const merchantId of new Set(events.map((e) => e.merchantId))) {
      await lockMerchant(manager, merchantId, 'shared');
    }
    const inserted: Array<{ claim?: ClaimedDelivery }> = [];
    const deliveries = events.map((event) => {
      const id = uuidv7();
      const handOff = this.dispatcher.reserveHandOff(event.merchantId);
      const slot: { claim?: ClaimedDelivery; body?: string } = {};
      inserted.push(slot);
      // Settled when the transaction ends, registered before anything can fail (opening the payer's
      // name can): sent only once it committed, and a reservation of a rolled-back batch is given
      // back. A handed-over claim takes its body as presented here, so the dispatcher does not open
      // what was just sealed.
      this.consumer.afterTransaction(manager, (committed) =>
        this.dispatcher.settleHandOff(event.merchantId, handOff, slot.claim, committed, slot.body),
      );
      const body = webhookBodyOf(this.withPayerNameOpened(event));
      slot.body = body;
      return {
        id,
        eventId: event.id,
        merchantId: event.merchantId,
        eventType: event.type,
        orderUuid: event.data.orderUuid,
        body: this.payerData.sealBody(id, body),
        claimForMs: handOff?.leaseMs,
      };
    });
    const claims = await this.deliveries.insertManyOnce(manager, deliveries);
    claims.forEach((claim, i) => (inserted[i]!.claim = claim));
    if (events.length < 2) return;
    const recorded = this.recordedInRun.get(manager) ?? new Set<string>();
    for (const event of events) recorded.add(event.id);
    this.recordedInRun.set(manager, recorded);
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
