import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { queryRows } from '@onramp/persistence';

import { MERCHANTS } from '../persistence/auth-tables';
import { MerchantEntity } from './merchant.entity';

const COLUMNS = `id, name, secret_hash AS "secretHash", token_version AS "tokenVersion",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

// The SQL of the merchant aggregate: its name, the hash of its secret and the token version a
// rotation bumps. Every method takes the manager of the caller's transaction (or the DataSource's,
// outside one): the use case decides what commits together, the admin audit record included.
@Injectable()
export class MerchantsRepository {
  async find(db: EntityManager, id: string): Promise<MerchantEntity | undefined> {
    const [row] = await queryRows<MerchantEntity>(db, `SELECT ${COLUMNS} FROM ${MERCHANTS} WHERE id = $1`, [id]);
    return row;
  }

  async insert(db: EntityManager, merchant: MerchantEntity): Promise<void> {
    await db.query(
      `INSERT INTO ${MERCHANTS} (id, name, secret_hash, token_version, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        merchant.id,
        merchant.name,
        merchant.secretHash,
        merchant.tokenVersion,
        merchant.createdAt,
        merchant.updatedAt,
      ],
    );
  }

  // Newest first; the id breaks ties so that pages never overlap.
  async listPage(
    db: EntityManager,
    limit: number,
    offset: number,
  ): Promise<{ merchants: MerchantEntity[]; total: number }> {
    const merchants = await queryRows<MerchantEntity>(
      db,
      `SELECT ${COLUMNS} FROM ${MERCHANTS} ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const [count] = await queryRows<{ total: number }>(db, `SELECT count(*)::int AS total FROM ${MERCHANTS}`);
    return { merchants, total: count?.total ?? 0 };
  }

  // A new secret and the next token version, so tokens of the old one are refused too. Undefined for
  // an unknown merchant.
  async rotateSecret(
    db: EntityManager,
    id: string,
    secretHash: string,
    at: Date,
  ): Promise<{ tokenVersion: number } | undefined> {
    const [row] = await queryRows<{ tokenVersion: number }>(
      db,
      `UPDATE ${MERCHANTS} SET secret_hash = $2, updated_at = $3, token_version = token_version + 1
       WHERE id = $1 RETURNING token_version AS "tokenVersion"`,
      [id, secretHash, at],
    );
    return row;
  }

  // The demo merchant with the configured secret: created, or given that secret (and a new token
  // version) when it had another.
  async upsertWithSecret(db: EntityManager, id: string, name: string, secretHash: string): Promise<void> {
    await db.query(
      `INSERT INTO ${MERCHANTS} AS m (id, name, secret_hash) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, updated_at = now(),
         token_version = m.token_version + 1`,
      [id, name, secretHash],
    );
  }

  // Merchants that rotated at least once, with the lowest token version each still accepts.
  async rotatedTokenVersions(db: EntityManager): Promise<Pick<MerchantEntity, 'id' | 'tokenVersion'>[]> {
    return queryRows(db, `SELECT id, token_version AS "tokenVersion" FROM ${MERCHANTS} WHERE token_version > 0`);
  }
}
