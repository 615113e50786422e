import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { OperatorScope } from '@onramp/auth';
import { queryRows } from '@onramp/persistence';

import { OPERATORS } from '../persistence/auth-tables';

export interface OperatorRow {
  id: string;
  scopes: OperatorScope[];
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const COLUMNS = 'id, scopes, created_at, created_by, revoked_at, revoked_by';

// The SQL of the operators: rows created and revoked, never deleted, and their key hashes. Every
// method takes the manager of the caller's transaction (or the DataSource's, outside one): the
// service decides what commits together with the audit record.
@Injectable()
export class OperatorsRepository {
  // Undefined when the id is taken, by a live or a revoked operator (ids are not reused).
  async insertOnce(
    db: EntityManager,
    operator: { id: string; scopes: OperatorScope[]; keySha256: Buffer; createdBy: string },
  ): Promise<OperatorRow | undefined> {
    const [row] = await queryRows<OperatorRow>(
      db,
      `INSERT INTO ${OPERATORS} (id, scopes, key_sha256, created_by)
       VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
      [operator.id, operator.scopes, operator.keySha256, operator.createdBy],
    );
    return row;
  }

  async listAll(db: EntityManager): Promise<OperatorRow[]> {
    return queryRows<OperatorRow>(db, `SELECT ${COLUMNS} FROM ${OPERATORS} ORDER BY created_at DESC, id`);
  }

  // Locked to the end of the caller's transaction, so two revocations of one operator serialise.
  async findForUpdate(db: EntityManager, id: string): Promise<OperatorRow | undefined> {
    const [row] = await queryRows<OperatorRow>(db, `SELECT ${COLUMNS} FROM ${OPERATORS} WHERE id = $1 FOR UPDATE`, [
      id,
    ]);
    return row;
  }

  async revoke(db: EntityManager, id: string, revokedBy: string): Promise<OperatorRow | undefined> {
    const [row] = await queryRows<OperatorRow>(
      db,
      `UPDATE ${OPERATORS} SET revoked_at = now(), revoked_by = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, revokedBy],
    );
    return row;
  }

  async liveKeys(db: EntityManager): Promise<{ id: string; scopes: OperatorScope[]; key: string }[]> {
    return queryRows(
      db,
      `SELECT id, scopes, encode(key_sha256, 'hex') AS key FROM ${OPERATORS}
       WHERE revoked_at IS NULL ORDER BY id`,
    );
  }
}
