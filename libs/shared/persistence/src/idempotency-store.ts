import { createHash } from 'node:crypto';

import { EntityManager } from 'typeorm';

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type IdempotencyLookup =
  { kind: 'miss' } | { kind: 'replay'; response: StoredResponse } | { kind: 'conflict' };

export function hashRequestBody(body: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');
}

// Same key + same body -> the first response; same key + another body -> conflict (409).
export class IdempotencyStore {
  constructor(private readonly schema: string) {}

  async lookup(
    manager: EntityManager,
    merchantId: string,
    key: string,
    requestHash: string,
  ): Promise<IdempotencyLookup> {
    const rows: { request_hash: string; response_status: number; response_body: unknown }[] =
      await manager.query(
        `SELECT request_hash, response_status, response_body FROM "${this.schema}"."idempotency_keys"
       WHERE merchant_id = $1 AND key = $2`,
        [merchantId, key],
      );
    if (rows.length === 0) return { kind: 'miss' };
    if (rows[0].request_hash !== requestHash) return { kind: 'conflict' };
    return { kind: 'replay', response: { status: rows[0].response_status, body: rows[0].response_body } };
  }

  // Call inside the transaction that performs the write, so the key and the effect commit together;
  // a concurrent duplicate then fails on the primary key and is retried as a replay.
  async save(
    manager: EntityManager,
    merchantId: string,
    key: string,
    requestHash: string,
    response: StoredResponse,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "${this.schema}"."idempotency_keys" (merchant_id, key, request_hash, response_status, response_body)
       VALUES ($1, $2, $3, $4, $5)`,
      [merchantId, key, requestHash, response.status, JSON.stringify(response.body)],
    );
  }
}
