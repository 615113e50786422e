import { randomBytes } from 'node:crypto';

import { FieldCipher } from '@onramp/crypto';
import { createDatabase, testDatabaseServer } from '@onramp/testing';

import { rekeyAuthSigningKeys } from './rekey-auth-keys';
import { useRekeyDatabase } from './rekey-test-database';

describe('rekeyAuthSigningKeys (real Postgres)', () => {
  const rekey = useRekeyDatabase(async (db) => {
    // The table as auth's migration creates it, reduced to the columns the rekey touches.
    await db.query(`CREATE SCHEMA auth`);
    await db.query(`CREATE TABLE auth.signing_keys (kid TEXT PRIMARY KEY, private_key_enc TEXT NOT NULL)`);
  });
  const { oldKey, newKey } = rekey;

  it('re-seals every signing key under the newest key, bound to its kid, resumably', async () => {
    const { databaseUrl, db } = rekey;
    const old = new FieldCipher(oldKey);
    const kids = Array.from({ length: 5 }, (_, i) => `kid-${i}`);
    for (const kid of kids)
      await db.query(`INSERT INTO auth.signing_keys VALUES ($1, $2)`, [kid, old.encrypt(`pem ${kid}`, kid)]);

    const first = await rekeyAuthSigningKeys({ databaseUrl, keys: [newKey, oldKey], batchSize: 2 });
    expect(first.resealed).toEqual({ 'auth.signing_keys': 5 });
    const again = await rekeyAuthSigningKeys({ databaseUrl, keys: [newKey, oldKey] });
    expect(again.resealed).toEqual({ 'auth.signing_keys': 0 });

    const current = new FieldCipher(newKey); // the old key is no longer needed
    const { rows } = await db.query<{ kid: string; private_key_enc: string }>(
      `SELECT * FROM auth.signing_keys`,
    );
    for (const row of rows) expect(current.decrypt(row.private_key_enc, row.kid)).toBe(`pem ${row.kid}`);
  });

  it('reports a database without auth, and refuses a value no key of the ring opens', async () => {
    const { databaseUrl, db } = rekey;
    const other = await createDatabase(testDatabaseServer());
    expect(await rekeyAuthSigningKeys({ databaseUrl: other, keys: [newKey] })).toMatchObject({
      missing: ['auth.signing_keys'],
    });
    const stranger = new FieldCipher(randomBytes(32).toString('hex'));
    await db.query(`INSERT INTO auth.signing_keys VALUES ('kid-x', $1)`, [stranger.encrypt('pem', 'kid-x')]);
    await expect(rekeyAuthSigningKeys({ databaseUrl, keys: [newKey, oldKey] })).rejects.toThrow(
      /not produced with a key of this ring/,
    );
    await db.query(`DELETE FROM auth.signing_keys WHERE kid = 'kid-x'`);
  });
});
