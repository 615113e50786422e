import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { EventEnvelope, KycUserErasedV1, Topics } from '@onramp/contracts';
import { EventConsumer } from '@onramp/messaging';

// kyc.user.erased: the KYC holder's name kept for the payer name policy is dropped, leaving a
// tombstone (no name, erased_at) that a late or replayed kyc.user.registered does not overwrite (see
// KycEventsHandler). The user's later credits then meet no known holder name: the policy reads them
// as UNKNOWN (HOLD parks them for an operator, WARN pays and records it). Idempotent: the inbox makes a
// redelivery a no-op, and erasing a tombstone again keeps the first erasure time.
@Injectable()
export class KycErasureHandler implements OnModuleInit {
  constructor(private readonly consumer: EventConsumer) {}

  onModuleInit(): void {
    this.consumer.on(Topics.KycUserErased, (event, manager) => this.onErased(event, manager));
  }

  async onErased(
    event: EventEnvelope<'kyc.user.erased', KycUserErasedV1>,
    manager: EntityManager,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "payments"."kyc_holders" (user_uuid, merchant_id, holder_name, erased_at)
       VALUES ($1, $2, NULL, $3)
       ON CONFLICT (user_uuid) DO UPDATE SET holder_name = NULL, updated_at = now(),
         erased_at = COALESCE("kyc_holders".erased_at, EXCLUDED.erased_at)`,
      [event.data.userUuid, event.merchantId, event.data.erasedAt],
    );
  }
}
