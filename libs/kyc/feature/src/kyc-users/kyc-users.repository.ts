import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { KycStatus } from '@onramp/contracts';

import { KYC_DECISIONS, KYC_USERS } from '../persistence/kyc-tables';
import { KycUserEntity } from './kyc-user.entity';

const COLUMNS = `uuid, merchant_id AS "merchantId", external_id AS "externalId", status,
  status_reason AS "statusReason", status_version AS "statusVersion", pii,
  created_at AS "createdAt", updated_at AS "updatedAt", erased_at AS "erasedAt",
  erased_by AS "erasedBy"`;

export interface KycDecisionRow {
  id: string;
  userUuid: string;
  previousStatus: KycStatus;
  status: KycStatus;
  statusVersion: number;
  reason: string;
  decidedBy: string;
  decidedAt: Date;
}

// The SQL of the KYC users aggregate (a user, its sealed PII and the history of its status
// decisions). Every method takes the manager of the caller's transaction (or the DataSource's,
// outside one): the use case decides what commits together. SELECT and INSERT ... RETURNING answer
// with their rows, which is all these read back.
@Injectable()
export class KycUsersRepository {
  // Scoped by merchant: another merchant's user is indistinguishable from none.
  async find(db: EntityManager, merchantId: string, uuid: string): Promise<KycUserEntity | undefined> {
    const [row] = (await db.query(
      `SELECT ${COLUMNS} FROM ${KYC_USERS} WHERE merchant_id = $1 AND uuid = $2`,
      [merchantId, uuid],
    )) as KycUserEntity[];
    return row;
  }

  // Newest first, the order of the kyc_users_merchant_newest index. Erased users are not listed:
  // nothing of theirs is left to present (GET of one answers 410).
  async listPage(
    db: EntityManager,
    merchantId: string,
    limit: number,
    offset: number,
  ): Promise<{ users: KycUserEntity[]; total: number }> {
    const users = (await db.query(
      `SELECT ${COLUMNS} FROM ${KYC_USERS} WHERE merchant_id = $1 AND erased_at IS NULL
       ORDER BY created_at DESC, uuid DESC LIMIT $2 OFFSET $3`,
      [merchantId, limit, offset],
    )) as KycUserEntity[];
    const [count] = (await db.query(
      `SELECT count(*)::int AS total FROM ${KYC_USERS} WHERE merchant_id = $1 AND erased_at IS NULL`,
      [merchantId],
    )) as { total: number }[];
    return { users, total: count?.total ?? 0 };
  }

  // ON CONFLICT DO NOTHING: a taken externalId is an expected answer (false), not a database error.
  async insertIfNew(db: EntityManager, user: KycUserEntity): Promise<boolean> {
    const inserted = (await db.query(
      `INSERT INTO ${KYC_USERS}
         (uuid, merchant_id, external_id, status, status_reason, status_version, pii, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT DO NOTHING RETURNING uuid`,
      [
        user.uuid,
        user.merchantId,
        user.externalId,
        user.status,
        user.statusReason,
        user.statusVersion,
        user.pii,
        user.createdAt,
        user.updatedAt,
      ],
    )) as unknown[];
    return inserted.length > 0;
  }

  // Any merchant's user (operators decide across merchants), locked until the transaction ends.
  async findForUpdate(db: EntityManager, uuid: string): Promise<KycUserEntity | undefined> {
    const [row] = (await db.query(`SELECT ${COLUMNS} FROM ${KYC_USERS} WHERE uuid = $1 FOR UPDATE`, [
      uuid,
    ])) as KycUserEntity[];
    return row;
  }

  // The new status and its history row, together (the caller's transaction holds the user's lock).
  async recordDecision(db: EntityManager, decision: KycDecisionRow): Promise<void> {
    await db.query(
      `UPDATE ${KYC_USERS} SET status = $2, status_reason = $3, status_version = $4, updated_at = $5
       WHERE uuid = $1`,
      [decision.userUuid, decision.status, decision.reason, decision.statusVersion, decision.decidedAt],
    );
    await db.query(
      `INSERT INTO ${KYC_DECISIONS}
         (id, user_uuid, previous_status, status, status_version, reason, decided_by, decided_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        decision.id,
        decision.userUuid,
        decision.previousStatus,
        decision.status,
        decision.statusVersion,
        decision.reason,
        decision.decidedBy,
        decision.decidedAt,
      ],
    );
  }

  // The PII becomes a tombstone and the merchant's externalId is let go (it may itself identify the
  // person, and frees the id for a new registration). The caller holds the user's lock.
  async erase(db: EntityManager, uuid: string, tombstone: string, erasedBy: string, at: Date): Promise<void> {
    await db.query(
      `UPDATE ${KYC_USERS} SET pii = $2, external_id = NULL, erased_at = $4, erased_by = $3, updated_at = $4
       WHERE uuid = $1`,
      [uuid, tombstone, erasedBy, at],
    );
  }
}
