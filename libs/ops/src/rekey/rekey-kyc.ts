import { Client } from 'pg';

import { FieldCipher } from '@onramp/crypto';
import { idempotencyContext } from '@onramp/persistence';

import { inBatches } from './sealed-tables';

// Re-seals KYC's PII under the newest key of the ring: every user's PII (associated data: the user's
// uuid, as kyc's KycPiiCipher binds it) and every idempotency record of POST /kyc/add (sealed, or
// still plain JSON from before sealing). Batches of `batchSize`, each in its own transaction with
// the rows locked (SKIP LOCKED, so a running kyc is not blocked), and a row is only rewritten if it
// is still what was read: safe to run beside the service, to interrupt, and to run again (it
// resumes where it stopped, since only rows not yet under the newest key are selected).
export interface RekeyOptions {
  databaseUrl: string;
  keys: readonly string[]; // newest first: KYC_ENCRYPTION_KEY, then KYC_PREVIOUS_ENCRYPTION_KEYS
  batchSize?: number;
}

export interface RekeyReport {
  keyId: string;
  kycUsers: number;
  idempotencyRecords: number;
}

export async function rekeyKyc(opts: RekeyOptions): Promise<RekeyReport> {
  const cipher = new FieldCipher(opts.keys);
  const batchSize = opts.batchSize ?? 200;
  const client = new Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    const kycUsers = await inBatches(client, async () => {
      const { rows } = await client.query<{ uuid: string; pii: string }>(
        `SELECT uuid, pii FROM kyc.kyc_users WHERE split_part(pii, '.', 2) <> $1
         ORDER BY uuid LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [cipher.keyId, batchSize],
      );
      for (const row of rows) {
        const resealed = cipher.encrypt(cipher.decrypt(row.pii, row.uuid), row.uuid);
        await client.query(`UPDATE kyc.kyc_users SET pii = $2 WHERE uuid = $1 AND pii = $3`, [
          row.uuid,
          resealed,
          row.pii,
        ]);
      }
      return rows.length;
    });
    const idempotencyRecords = await inBatches(client, async () => {
      const { rows } = await client.query<{ merchant_id: string; key: string; response_body: unknown }>(
        `SELECT merchant_id, key, response_body FROM kyc.idempotency_keys
         WHERE NOT (jsonb_typeof(response_body) = 'object' AND response_body ? 'sealed'
                    AND split_part(response_body->>'sealed', '.', 2) = $1)
         ORDER BY merchant_id, key LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [cipher.keyId, batchSize],
      );
      for (const row of rows) {
        const context = idempotencyContext(row.merchant_id, row.key);
        const body = row.response_body as { sealed?: unknown } | null;
        const plain =
          body && typeof body.sealed === 'string' && Object.keys(body).length === 1
            ? cipher.decrypt(body.sealed, context)
            : JSON.stringify(row.response_body);
        await client.query(
          `UPDATE kyc.idempotency_keys SET response_body = $3 WHERE merchant_id = $1 AND key = $2`,
          [row.merchant_id, row.key, JSON.stringify({ sealed: cipher.encrypt(plain, context) })],
        );
      }
      return rows.length;
    });
    return { keyId: cipher.keyId, kycUsers, idempotencyRecords };
  } finally {
    await client.end();
  }
}
