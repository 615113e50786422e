import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { upsertKycProjection } from '../kyc/kyc-projection';

// kyc.user.* keep the KYC projection that order creation checks. Registered before the consumer
// starts at application bootstrap, like every handler.
@Injectable()
export class KycEventsHandler implements OnModuleInit {
  constructor(private readonly consumer: EventConsumer) {}

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
  }
}
