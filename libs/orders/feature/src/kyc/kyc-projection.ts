import { EntityManager } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

export interface KycUserFacts {
  uuid: string;
  merchantId: string;
  status: KycStatus;
  statusVersion: number; // 0 at registration, +1 per decision
}

// One upsert for every source (registration, decisions, the read-your-write call): the highest
// status version wins, so an event that arrives late never undoes a newer decision.
export async function upsertKycProjection(manager: EntityManager, user: KycUserFacts): Promise<void> {
  await manager.query(
    `INSERT INTO "orders"."kyc_users" (uuid, merchant_id, status, status_version, updated_at) VALUES ($1, $2, $3, $4, now())
     ON CONFLICT (uuid) DO UPDATE SET status = EXCLUDED.status, status_version = EXCLUDED.status_version, updated_at = now()
     WHERE "kyc_users".merchant_id = EXCLUDED.merchant_id AND "kyc_users".status_version <= EXCLUDED.status_version`,
    [user.uuid, user.merchantId, user.status, user.statusVersion],
  );
}
