import { Injectable, OnModuleInit } from '@nestjs/common';

import { Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

import { KycProjectionRepository } from '../kyc/kyc-projection.repository';

// kyc.user.* keep the KYC projection that order creation checks. Registered before the consumer
// starts at application bootstrap, like every handler.
@Injectable()
export class KycEventsHandler implements OnModuleInit {
  constructor(
    private readonly consumer: EventConsumer,
    private readonly projection: KycProjectionRepository,
  ) {}

  onModuleInit(): void {
    this.consumer.on(Topics.KycUserRegistered, (event, manager) =>
      this.projection.upsert(manager, {
        uuid: event.data.userUuid,
        merchantId: event.merchantId,
        status: event.data.status,
        statusVersion: 0,
      }),
    );
    this.consumer.on(Topics.KycUserStatusChanged, (event, manager) =>
      this.projection.upsert(manager, {
        uuid: event.data.userUuid,
        merchantId: event.merchantId,
        status: event.data.status,
        statusVersion: event.data.statusVersion,
      }),
    );
  }
}
