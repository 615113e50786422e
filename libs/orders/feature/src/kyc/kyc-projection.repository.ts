import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

import { KYC_USERS } from '../persistence/orders-tables';

export interface KycUserFacts {
  uuid: string;
  merchantId: string;
  status: KycStatus;
  statusVersion: number; // 0 at registration, +1 per decision
}

// The SQL of the KYC projection (what orders knows of KYC users). Every method takes the manager of
// the caller's transaction (the consumer's in the event handler) or the DataSource's outside one.
@Injectable()
export class KycProjectionRepository {
  async find(db: EntityManager, uuid: string): Promise<KycUserFacts | undefined> {
    const [row] = (await db.query(
      `SELECT uuid, merchant_id AS "merchantId", status, status_version AS "statusVersion"
       FROM ${KYC_USERS} WHERE uuid = $1`,
      [uuid],
    )) as KycUserFacts[];
    return row;
  }

  // One upsert for every source (registration, decisions, the read-your-write call): the highest
  // status version wins, so an event that arrives late never undoes a newer decision.
  async upsert(db: EntityManager, user: KycUserFacts): Promise<void> {
    await db.query(
      `INSERT INTO ${KYC_USERS} (uuid, merchant_id, status, status_version, updated_at) VALUES ($1, $2, $3, $4, now())
       ON CONFLICT (uuid) DO UPDATE SET status = EXCLUDED.status, status_version = EXCLUDED.status_version, updated_at = now()
       WHERE "kyc_users".merchant_id = EXCLUDED.merchant_id AND "kyc_users".status_version <= EXCLUDED.status_version`,
      [user.uuid, user.merchantId, user.status, user.statusVersion],
    );
  }
}
