import { createHash, randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OperatorScope } from '@onramp/auth';
import { conflict, notFound } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { AUTH_SCHEMA } from '../config';

export interface OperatorSummary {
  id: string;
  scopes: OperatorScope[];
  createdAt: string;
  createdBy: string;
  revokedAt: string | null;
  revokedBy: string | null;
}

export interface CreatedOperator extends OperatorSummary {
  key: string; // shown once; only its SHA-256 is kept
}

// What the gateway authenticates operators against: the hash of each live key, never a key.
export interface OperatorKey {
  id: string;
  scopes: OperatorScope[];
  keySha256: string; // hex
}

interface OperatorRow {
  id: string;
  scopes: OperatorScope[];
  created_at: Date;
  created_by: string;
  revoked_at: Date | null;
  revoked_by: string | null;
}

const summary = (row: OperatorRow): OperatorSummary => ({
  id: row.id,
  scopes: row.scopes,
  createdAt: row.created_at.toISOString(),
  createdBy: row.created_by,
  revokedAt: row.revoked_at?.toISOString() ?? null,
  revokedBy: row.revoked_by,
});

const COLUMNS = 'id, scopes, created_at, created_by, revoked_at, revoked_by';

// Operators as rows: created, listed and revoked through the admin API, each change in the audit
// log in the transaction that makes it. Keys are 32 random bytes: a fast hash is enough.
@Injectable()
export class OperatorsService {
  constructor(private readonly dataSource: DataSource) {}

  async create(input: { id: string; scopes: OperatorScope[] }, actor: AdminActor): Promise<CreatedOperator> {
    const key = randomBytes(32).toString('base64url');
    const keySha256 = createHash('sha256').update(key).digest();
    const row = await this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<OperatorRow[]>(
        `INSERT INTO "${AUTH_SCHEMA}"."operators" (id, scopes, key_sha256, created_by)
         VALUES ($1, $2, $3, $4) ON CONFLICT (id) DO NOTHING RETURNING ${COLUMNS}`,
        [input.id, input.scopes, keySha256, actor.operator],
      );
      if (rows.length === 0)
        throw conflict(`operator ${input.id} exists or existed (ids of revoked operators are not reused)`);
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'operator.create',
        target: input.id,
        after: { scopes: input.scopes },
      });
      return rows[0];
    });
    return { ...summary(row), key };
  }

  async list(): Promise<OperatorSummary[]> {
    const rows = await this.dataSource.query<OperatorRow[]>(
      `SELECT ${COLUMNS} FROM "${AUTH_SCHEMA}"."operators" ORDER BY created_at DESC, id`,
    );
    return rows.map(summary);
  }

  // Revoking twice answers the revoked operator again (no second audit record).
  async revoke(id: string, actor: AdminActor): Promise<OperatorSummary> {
    return this.dataSource.transaction(async (manager) => {
      const [current] = await manager.query<OperatorRow[]>(
        `SELECT ${COLUMNS} FROM "${AUTH_SCHEMA}"."operators" WHERE id = $1 FOR UPDATE`,
        [id],
      );
      if (!current)
        throw notFound(`operator ${id} not found (operators from OPERATOR_KEYS are configuration)`);
      if (current.revoked_at) return summary(current);
      // In a CTE: TypeORM answers a bare UPDATE ... RETURNING with [rows, count], a SELECT with rows.
      const [revoked] = await manager.query<OperatorRow[]>(
        `WITH revoked AS (UPDATE "${AUTH_SCHEMA}"."operators" SET revoked_at = now(), revoked_by = $2
         WHERE id = $1 RETURNING ${COLUMNS}) SELECT * FROM revoked`,
        [id, actor.operator],
      );
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'operator.revoke',
        target: id,
        before: { scopes: current.scopes },
        after: { revokedAt: revoked.revoked_at!.toISOString() },
      });
      return summary(revoked);
    });
  }

  async liveKeys(): Promise<OperatorKey[]> {
    const rows = await this.dataSource.query<{ id: string; scopes: OperatorScope[]; key: string }[]>(
      `SELECT id, scopes, encode(key_sha256, 'hex') AS key FROM "${AUTH_SCHEMA}"."operators"
       WHERE revoked_at IS NULL ORDER BY id`,
    );
    return rows.map((r) => ({ id: r.id, scopes: r.scopes, keySha256: r.key }));
  }
}
