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

// How a response body is kept. A service whose answers carry PII (kyc) seals them; the default
// keeps the JSON as is. `context` binds a sealed body to its merchant and key.
export interface ResponseBodyCodec {
  seal(body: unknown, context: string): unknown;
  open(stored: unknown, context: string): unknown;
}

export const PLAIN_BODIES: ResponseBodyCodec = { seal: (body) => body, open: (stored) => stored };

export const idempotencyContext = (merchantId: string, key: string): string =>
  `idempotency:${merchantId}:${key}`;

// Same key + same body -> the first response; same key + another body -> conflict (409).
// The request is kept as a SHA-256 only.
export class IdempotencyStore {
  constructor(
    private readonly schema: string,
    private readonly codec: ResponseBodyCodec = PLAIN_BODIES,
  ) {}

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
    const body = this.codec.open(rows[0].response_body, idempotencyContext(merchantId, key));
    return { kind: 'replay', response: { status: rows[0].response_status, body } };
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
      [
        merchantId,
        key,
        requestHash,
        response.status,
        JSON.stringify(this.codec.seal(response.body, idempotencyContext(merchantId, key))),
      ],
    );
  }
}
