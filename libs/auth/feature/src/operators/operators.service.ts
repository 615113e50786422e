import { createHash, randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { OperatorScope } from '@onramp/auth';
import { conflict, notFound } from '@onramp/http';
import { AdminActor, recordAdminAction } from '@onramp/persistence';

import { AUTH_SCHEMA } from '../config';
import { OperatorRow, OperatorsRepository } from './operators.repository';

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

const summary = (row: OperatorRow): OperatorSummary => ({
  id: row.id,
  scopes: row.scopes,
  createdAt: row.created_at.toISOString(),
  createdBy: row.created_by,
  revokedAt: row.revoked_at?.toISOString() ?? null,
  revokedBy: row.revoked_by,
});

// Operators as rows: created, listed and revoked through the admin API, each change in the audit
// log in the transaction that makes it. Keys are 32 random bytes: a fast hash is enough.
@Injectable()
export class OperatorsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly operators: OperatorsRepository,
  ) {}

  async create(input: { id: string; scopes: OperatorScope[] }, actor: AdminActor): Promise<CreatedOperator> {
    const key = randomBytes(32).toString('base64url');
    const keySha256 = createHash('sha256').update(key).digest();
    const row = await this.dataSource.transaction(async (manager) => {
      const created = await this.operators.insertOnce(manager, {
        id: input.id,
        scopes: input.scopes,
        keySha256,
        createdBy: actor.operator,
      });
      if (!created)
        throw conflict(`operator ${input.id} exists or existed (ids of revoked operators are not reused)`);
      await recordAdminAction(manager, AUTH_SCHEMA, actor, {
        action: 'operator.create',
        target: input.id,
        after: { scopes: input.scopes },
      });
      return created;
    });
    return { ...summary(row), key };
  }

  async list(): Promise<OperatorSummary[]> {
    const rows = await this.operators.listAll(this.dataSource.manager);
    return rows.map(summary);
  }

  // Revoking twice answers the revoked operator again (no second audit record).
  async revoke(id: string, actor: AdminActor): Promise<OperatorSummary> {
    return this.dataSource.transaction(async (manager) => {
      const current = await this.operators.findForUpdate(manager, id);
      if (!current)
        throw notFound(`operator ${id} not found (operators from OPERATOR_KEYS are configuration)`);
      if (current.revoked_at) return summary(current);
      const revoked = await this.operators.revoke(manager, id, actor.operator);
      if (!revoked) throw new Error(`operator ${id} vanished while locked`);
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
    const rows = await this.operators.liveKeys(this.dataSource.manager);
    return rows.map((r) => ({ id: r.id, scopes: r.scopes, keySha256: r.key }));
  }
}
