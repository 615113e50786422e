import { randomUUID } from 'node:crypto';

import { FieldCipher } from '@onramp/crypto';
import { idempotencyContext } from '@onramp/persistence';

import { rekeyKyc } from './rekey-kyc';
import { useRekeyDatabase } from './rekey-test-database';

describe('rekeyKyc (real Postgres)', () => {
  const rekey = useRekeyDatabase(async (db) => {
    // The two tables as kyc's migrations create them, reduced to the columns the rekey touches.
    await db.query(`CREATE SCHEMA kyc`);
    await db.query(`CREATE TABLE kyc.kyc_users (uuid UUID PRIMARY KEY, pii TEXT NOT NULL)`);
    await db.query(`CREATE TABLE kyc.idempotency_keys (merchant_id UUID, key TEXT, response_body JSONB NOT NULL,
      PRIMARY KEY (merchant_id, key))`);
  });
  const { oldKey, newKey } = rekey;

  it('re-seals every user and idempotency record under the newest key, resumably, and seals plain records', async () => {
    const { databaseUrl, db } = rekey;
    const old = new FieldCipher(oldKey);
    const users = Array.from({ length: 5 }, () => randomUUID());
    for (const uuid of users)
      await db.query(`INSERT INTO kyc.kyc_users VALUES ($1, $2)`, [
        uuid,
        old.encrypt(`{"firstName":"Ada ${uuid}"}`, uuid),
      ]);
    const merchant = randomUUID();
    await db.query(`INSERT INTO kyc.idempotency_keys VALUES ($1, 'plain', $2)`, [
      merchant,
      JSON.stringify({ uuid: users[0], firstName: 'Ada' }),
    ]);
    await db.query(`INSERT INTO kyc.idempotency_keys VALUES ($1, 'sealed', $2)`, [
      merchant,
      JSON.stringify({
        sealed: old.encrypt('{"firstName":"Grace"}', idempotencyContext(merchant, 'sealed')),
      }),
    ]);

    const first = await rekeyKyc({ databaseUrl, keys: [newKey, oldKey], batchSize: 2 });
    expect(first).toMatchObject({ kycUsers: 5, idempotencyRecords: 2 });
    expect(await rekeyKyc({ databaseUrl, keys: [newKey, oldKey] })).toMatchObject({
      kycUsers: 0,
      idempotencyRecords: 0,
    });

    const current = new FieldCipher(newKey); // the old key is no longer needed
    const { rows } = await db.query<{ uuid: string; pii: string }>(`SELECT uuid, pii FROM kyc.kyc_users`);
    for (const row of rows)
      expect(current.decrypt(row.pii, row.uuid)).toBe(`{"firstName":"Ada ${row.uuid}"}`);
    const records = await db.query<{ key: string; response_body: { sealed: string } }>(
      `SELECT key, response_body FROM kyc.idempotency_keys ORDER BY key`,
    );
    expect(
      records.rows.map((r) => current.decrypt(r.response_body.sealed, idempotencyContext(merchant, r.key))),
    ).toEqual([JSON.stringify({ uuid: users[0], firstName: 'Ada' }), '{"firstName":"Grace"}']);
  });
});
