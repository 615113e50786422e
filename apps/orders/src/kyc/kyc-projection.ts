import { EntityManager } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

export interface KycUserFacts {
  uuid: string;
  merchantId: string;
  status: KycStatus;
}

// One upsert for both sources (the event and the read-your-write call); they agree, so the last
// writer wins harmlessly.
export async function upsertKycProjection(manager: EntityManager, user: KycUserFacts): Promise<void> {
  await manager.query(
    `INSERT INTO "orders"."kyc_users" (uuid, merchant_id, status, updated_at) VALUES ($1, $2, $3, now())
     ON CONFLICT (uuid) DO UPDATE SET status = EXCLUDED.status, updated_at = now()
     WHERE "kyc_users".merchant_id = EXCLUDED.merchant_id`,
    [user.uuid, user.merchantId, user.status],
  );
}
