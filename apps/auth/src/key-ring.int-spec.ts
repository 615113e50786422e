import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import { DEVELOPMENT_KEYS, FieldCipher } from '@onramp/crypto';

import { AuthHarness, basic, startAuthHarness } from './testing/auth-harness';

// Rotating AUTH_KEY_ENCRYPTION_KEY: the old key in AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS keeps the
// signing keys it sealed usable, a re-seal under the new key (what `npm run rekey` does, tested in
// libs/ops) lets the old key go.
describe('auth signing-key encryption ring (real Postgres)', () => {
  let h: AuthHarness;

  beforeAll(async () => {
    h = await startAuthHarness(); // sandbox: the active signing key sealed under the development key
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('signs with keys sealed under the previous key, and after the rekey without it', async () => {
    const next = randomBytes(32).toString('hex');
    const issue = async (app: Awaited<ReturnType<AuthHarness['boot']>>) =>
      (
        await app.inject({
          method: 'POST',
          url: '/auth/token',
          headers: { authorization: basic(h.demo.id, h.demo.secret) },
        })
      ).statusCode;

    const rotated = await h.boot({
      AUTH_KEY_ENCRYPTION_KEY: next,
      AUTH_KEY_PREVIOUS_ENCRYPTION_KEYS: DEVELOPMENT_KEYS.authKeyEncryption,
    });
    try {
      expect(await issue(rotated)).toBe(200);
    } finally {
      await rotated.close();
    }

    const db = new Client({ connectionString: h.databaseUrl });
    await db.connect();
    try {
      const ring = new FieldCipher([next, DEVELOPMENT_KEYS.authKeyEncryption]);
      const { rows } = await db.query<{ kid: string; private_key_enc: string }>(
        `SELECT kid, private_key_enc FROM auth.signing_keys`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(1);
      for (const row of rows)
        await db.query(`UPDATE auth.signing_keys SET private_key_enc = $2 WHERE kid = $1`, [
          row.kid,
          ring.encrypt(ring.decrypt(row.private_key_enc, row.kid), row.kid),
        ]);
    } finally {
      await db.end();
    }

    const after = await h.boot({ AUTH_KEY_ENCRYPTION_KEY: next });
    try {
      expect(await issue(after)).toBe(200);
    } finally {
      await after.close();
    }
  });
});
