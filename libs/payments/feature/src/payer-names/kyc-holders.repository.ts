import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { KYC_HOLDERS } from '../persistence/payments-tables';

// The KYC account holder names the payer name policy compares with, kept from kyc.user.registered
// sealed as kyc sent them (opened only to compare). Every method takes the caller's manager.
@Injectable()
export class KycHoldersRepository {
  // Idempotent: the latest name of a user wins, unless the user's data was erased (the tombstone stays).
  async upsert(
    db: EntityManager,
    holder: { userUuid: string; merchantId: string; sealedName: string },
  ): Promise<void> {
    await db.query(
      `INSERT INTO ${KYC_HOLDERS} (user_uuid, merchant_id, holder_name) VALUES ($1, $2, $3)
       ON CONFLICT (user_uuid) DO UPDATE SET holder_name = EXCLUDED.holder_name, updated_at = now()
       WHERE "kyc_holders".erased_at IS NULL`,
      [holder.userUuid, holder.merchantId, holder.sealedName],
    );
  }

  // Drops the name, leaving a tombstone (no name, erased_at) that upsert leaves alone; erasing a
  // tombstone again keeps the first erasure time.
  async erase(
    db: EntityManager,
    holder: { userUuid: string; merchantId: string; erasedAt: string },
  ): Promise<void> {
    await db.query(
      `INSERT INTO ${KYC_HOLDERS} (user_uuid, merchant_id, holder_name, erased_at)
       VALUES ($1, $2, NULL, $3)
       ON CONFLICT (user_uuid) DO UPDATE SET holder_name = NULL, updated_at = now(),
         erased_at = COALESCE("kyc_holders".erased_at, EXCLUDED.erased_at)`,
      [holder.userUuid, holder.merchantId, holder.erasedAt],
    );
  }

  // undefined when no name is known: never registered here, or erased (a tombstone's name is NULL)
  async findSealedName(db: EntityManager, userUuid: string): Promise<string | undefined> {
    const [row] = await queryRows<{ holderName: string | null }>(
      db,
      `SELECT holder_name AS "holderName" FROM ${KYC_HOLDERS} WHERE user_uuid = $1`,
      [userUuid],
    );
    return row?.holderName ?? undefined;
  }
}
