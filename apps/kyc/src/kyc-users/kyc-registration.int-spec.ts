import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { Topics } from '@onramp/contracts';
import { DEVELOPMENT_KEYS, FieldCipher, kycHolderNameContext } from '@onramp/crypto';
import { publishedEvents, TopicRecorder } from '@onramp/testing';

import { adultApplicant, KycTestApp, startKycTestApp } from '../testing/kyc-test-app';

describe('KYC registration side effects (integration)', () => {
  let t: KycTestApp;
  let recorder: TopicRecorder;
  const merchant = randomUUID();
  const add = (body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/kyc/add',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      payload: body as object,
    });

  beforeAll(async () => {
    [t, recorder] = await Promise.all([startKycTestApp(), TopicRecorder.start([Topics.KycUserRegistered])]);
  });
  afterAll(async () => {
    await recorder?.stop();
    await t?.close();
  });

  it('announces kyc.user.registered, keyed by the user uuid, with the screening outcome', async () => {
    const approved = (await add(adultApplicant())).json();
    const rejected = (await add(adultApplicant({ dateOfBirth: '2020-01-01' }))).json();

    const event = await recorder.waitForEvent('approved user event', (e) => e.key === approved.uuid);
    expect(event.topic).toBe('kyc.user.registered');
    expect(event.envelope).toMatchObject({ type: 'kyc.user.registered', version: 1, merchantId: merchant });
    const sealed = expect.stringMatching(/^v1\./); // the holder's name, for payment-ingest only
    expect(event.envelope.data).toEqual({ userUuid: approved.uuid, status: 'APPROVED', holderName: sealed });
    const { holderName } = event.envelope.data as { holderName: string };
    expect(
      new FieldCipher(DEVELOPMENT_KEYS.payerDataEncryption).decrypt(holderName, kycHolderNameContext(approved.uuid)),
    ).toBe('Jane Doe');
    expect(event.headers['event-id']).toBe(event.envelope.id);

    const rejectedEvent = await recorder.waitForEvent('rejected user event', (e) => e.key === rejected.uuid);
    expect(rejectedEvent.envelope.data).toEqual({ userUuid: rejected.uuid, status: 'REJECTED', holderName: sealed });
  });

  it('publishes nothing for a refused registration', async () => {
    const merchantId = randomUUID();
    const externalId = `ext-${randomUUID()}`;
    const post = (body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/kyc/add',
        headers: { authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` },
        payload: body as object,
      });
    expect((await post(adultApplicant({ externalId }))).statusCode).toBe(201);
    expect((await post(adultApplicant({ externalId, email: 'other@example.com' }))).statusCode).toBe(409);
    expect((await post(adultApplicant({ email: 'broken' }))).statusCode).toBe(400);
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const published = await publishedEvents((sql) => db.query(sql), 'kyc', [Topics.KycUserRegistered]);
      expect(published.filter((e) => e.envelope.merchantId === merchantId)).toHaveLength(1);
    } finally {
      await db.end();
    }
  });

  it('stores personal data only encrypted', async () => {
    const person = adultApplicant({
      firstName: 'Zebulon',
      lastName: 'Quattlebaum',
      email: 'zebulon.quattlebaum@example.com',
      externalId: `ext-${randomUUID()}`,
      address: { line1: 'Kastanienallee 77', city: 'Potsdam', postalCode: '14467', country: 'DE' },
    });
    const created = (await add(person)).json();
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT row_to_json(u)::text AS raw, pii FROM kyc.kyc_users u WHERE uuid = $1`,
        [created.uuid],
      );
      const raw = rows[0].raw as string;
      for (const secret of [
        'Zebulon',
        'Quattlebaum',
        'zebulon.quattlebaum',
        'Kastanienallee',
        'Potsdam',
        '14467',
        '1990-04-01',
        'C01X00T47',
        '+4915112345678',
      ]) {
        expect(raw).not.toContain(secret);
      }
      expect(rows[0].pii).toMatch(/^v1\./);
      expect(raw).toContain(created.uuid);

      // a sealed blob copied onto another user's row does not open (associated data = uuid)
      const other = (await add(adultApplicant())).json();
      await db.query(`UPDATE kyc.kyc_users SET pii = $1 WHERE uuid = $2`, [rows[0].pii, other.uuid]);
      const res = await t.app.inject({
        method: 'GET',
        url: `/kyc/${other.uuid}`,
        headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      });
      expect(res.statusCode).toBe(500);
      expect(JSON.stringify(res.json())).not.toContain('Zebulon');
      await db.query(`DELETE FROM kyc.kyc_users WHERE uuid = $1`, [other.uuid]);
    } finally {
      await db.end();
    }
  });

  it('reports health and readiness', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/health' })).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject({ method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });
});
