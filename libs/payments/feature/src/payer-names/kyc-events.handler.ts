import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, KycUserRegisteredV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { KycHoldersRepository } from './kyc-holders.repository';

// kyc.user.registered keeps the account holder names the payer name policy compares with, stored
// sealed as kyc sent them (payer-data ring, bound to the user; opened only to compare). The upsert
// is idempotent; an event without a name (written before it carried one) changes nothing, and
// neither does one for a user whose data was erased (a tombstone, KycErasureHandler): the two events
// travel on different topics, so the registration may come after the erasure, or be replayed.
@Injectable()
export class KycEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly holders: KycHoldersRepository,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.KycUserRegistered, (event, manager) => this.onRegistered(event, manager));
  }

  async onRegistered(
    event: EventEnvelope<'kyc.user.registered', KycUserRegisteredV1>,
    manager: EntityManager,
  ): Promise<void> {
    const name = event.data.holderName?.trim();
    if (!name) return;
    await this.holders.upsert(manager, {
      userUuid: event.data.userUuid,
      merchantId: event.merchantId,
      sealedName: name,
    });
  }
}
