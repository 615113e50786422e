import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, KycUserErasedV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { KycHoldersRepository } from './kyc-holders.repository';

// kyc.user.erased: the KYC holder's name kept for the payer name policy is dropped, leaving a
// tombstone (no name, erased_at) that a late or replayed kyc.user.registered does not overwrite (see
// KycEventsHandler). The user's later credits then meet no known holder name: the policy reads them
// as UNKNOWN (HOLD parks them for an operator, WARN pays and records it). Idempotent: the inbox makes a
// redelivery a no-op, and erasing a tombstone again keeps the first erasure time.
@Injectable()
export class KycErasureHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly holders: KycHoldersRepository,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.KycUserErased, (event, manager) => this.onErased(event, manager));
  }

  async onErased(
    event: EventEnvelope<'kyc.user.erased', KycUserErasedV1>,
    manager: EntityManager,
  ): Promise<void> {
    await this.holders.erase(manager, {
      userUuid: event.data.userUuid,
      merchantId: event.merchantId,
      erasedAt: event.data.erasedAt,
    });
  }
}
