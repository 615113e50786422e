import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { signServiceRequest } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';
import { Topics } from '@onramp/contracts';
import { eventsAbout, operatorHeaders, publishedEvents } from '@onramp/testing';

import { adultApplicant, KycTestApp, startKycTestApp } from '../testing/kyc-test-app';

describe('KYC erasure by an operator (integration, real Postgres)', () => {
  let t: KycTestApp;
  let db: Client;
  const merchant = randomUUID();
  const auth = () => ({ authorization: `Bearer ${t.issuer.tokenFor(merchant)}` });
  const erase = (uuid: string, headers = operatorHeaders('POST', `/admin/kyc-users/${uuid}/erase`)) =>
    t.app.inject({ method: 'POST', url: `/admin/kyc-users/${uuid}/erase`, headers });
  const register = (key: string, body = adultApplicant({ externalId: `ext-${key}` })) =>
    t.app.inject({
      method: 'POST',
      url: '/kyc/add',
      headers: { ...auth(), 'idempotency-key': key },
      payload: body,
    });

  beforeAll(async () => {
    t = await startKycTestApp();
    db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await t?.close();
  });

  it('shreds the PII and its replays, rejects the user, keeps the AML record, audited', async () => {
    // The relay's lock, held until the events are checked: the registration event is still in the
    // outbox when the user is erased (the relay deletes what it published, and an event already
    // published is payment-ingest's to forget, through kyc.user.erased).
    await db.query(`SELECT pg_advisory_lock(hashtext('kyc.outbox'))`);
    const key = `k-${randomUUID()}`;
    const body = adultApplicant({ externalId: `ext-${key}` });
    const created = await register(key, body);
    expect(created.statusCode).toBe(201);
    const user = created.json<{ uuid: string; status: string }>();
    const other = (await register(`k-${randomUUID()}`)).json<{ uuid: string }>(); // stays as it is
    const [before] = (await db.query(`SELECT pii FROM kyc.kyc_users WHERE uuid = $1`, [user.uuid])).rows;

    const res = await erase(user.uuid, {
      ...operatorHeaders('POST', `/admin/kyc-users/${user.uuid}/erase`, { id: 'dpo', scopes: ['kyc'] }),
      'x-request-id': 'req-erase-1',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      uuid: user.uuid,
      erasedBy: 'dpo',
      status: 'REJECTED',
      idempotencyRecords: 1,
      changed: true,
    });
    // twice: the same answer, nothing more happens
    expect((await erase(user.uuid)).json()).toMatchObject({ erasedBy: 'dpo', changed: false });

    // the merchant API: 410 for the user, absent from the list, a replay of its registration is a 410
    const shown = await t.app.inject({ method: 'GET', url: `/kyc/${user.uuid}`, headers: auth() });
    expect(shown.statusCode).toBe(410);
    expect(shown.headers['content-type']).toContain('application/problem+json');
    const list = await t.app.inject({ method: 'GET', url: '/kyc/get-all?limit=50', headers: auth() });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ uuid: string }[]>().map((u) => u.uuid)).toEqual([other.uuid]);
    expect(list.headers['x-total-count']).toBe('1');
    const replay = await register(key, body);
    expect(replay.statusCode).toBe(410);
    expect(replay.body).not.toContain('Jane');
    // the externalId is free again: the person can be registered anew
    expect((await register(`k-${randomUUID()}`, body)).statusCode).toBe(201);
    // orders' read-your-write check still answers (status only)
    const internalUrl = `/internal/kyc-users/${user.uuid}?merchantId=${merchant}`;
    const internal = await t.app.inject({
      method: 'GET',
      url: internalUrl,
      headers: {
        'x-service-credential': signServiceRequest(
          'orders',
          DEVELOPMENT_KEYS.serviceSecret,
          'GET',
          internalUrl,
        ),
      },
    });
    expect(internal.statusCode).toBe(200);
    expect(internal.json()).toMatchObject({ uuid: user.uuid, status: 'REJECTED' });

    // what is kept: the row, its status history with who and why, the audit record; no PII
    const [row] = (
      await db.query(
        `SELECT merchant_id, external_id, status, pii, erased_by FROM kyc.kyc_users WHERE uuid = $1`,
        [user.uuid],
      )
    ).rows;
    expect(row).toMatchObject({
      merchant_id: merchant,
      external_id: null,
      status: 'REJECTED',
      erased_by: 'dpo',
    });
    expect(row.pii).not.toBe(before.pii);
    expect(row.pii).toMatch(/^v1\./); // a sealed tombstone: the rekey treats it as any value
    const decisions = await db.query(
      `SELECT status, reason, decided_by FROM kyc.kyc_decisions WHERE user_uuid = $1`,
      [user.uuid],
    );
    expect(decisions.rows).toEqual([
      { status: 'REJECTED', reason: 'personal data erased', decided_by: 'dpo' },
    ]);
    const audit = await db.query(
      `SELECT action, operator, request_id, before, after FROM kyc.admin_audit WHERE target = $1 ORDER BY at`,
      [user.uuid],
    );
    expect(audit.rows.map((r: { action: string }) => r.action)).toEqual([
      'kyc-user.decide',
      'kyc-user.erase',
    ]);
    expect(audit.rows[1]).toMatchObject({
      operator: 'dpo',
      request_id: 'req-erase-1',
      before: { status: user.status },
    });
    // the registration event, still unpublished, no longer carries the holder's name; the other
    // user's still does
    const registrations = await db.query(
      `SELECT key, envelope->'data' AS data FROM kyc.outbox WHERE topic = 'kyc.user.registered'
       AND key = ANY($1::text[])`,
      [[user.uuid, other.uuid]],
    );
    const registration = (uuid: string) =>
      registrations.rows.find((r: { key: string }) => r.key === uuid)?.data as Record<string, unknown>;
    expect(registration(user.uuid)).toEqual({ userUuid: user.uuid, status: user.status });
    expect(registration(other.uuid)['holderName']).toEqual(expect.stringMatching(/^v1\./));
    await db.query(`SELECT pg_advisory_unlock(hashtext('kyc.outbox'))`);

    const published = eventsAbout(
      await publishedEvents((sql) => db.query(sql), 'kyc', [
        Topics.KycUserRegistered,
        Topics.KycUserStatusChanged,
        Topics.KycUserErased,
      ]),
      [user.uuid, other.uuid],
    );
    const about = (topic: string, uuid: string) =>
      published.filter((e) => e.topic === topic && e.key === uuid).map((e) => e.envelope);
    // orders learns the user is REJECTED: no new orders
    expect(about(Topics.KycUserStatusChanged, user.uuid)).toHaveLength(1);
    // payment-ingest learns to drop the holder's name, once though erased twice
    expect(about(Topics.KycUserErased, user.uuid)).toEqual([
      expect.objectContaining({
        merchantId: merchant,
        version: 1,
        data: { userUuid: user.uuid, erasedAt: res.json<{ erasedAt: string }>().erasedAt },
      }),
    ]);
    // the registration went out without the name
    expect(about(Topics.KycUserRegistered, user.uuid).map((e) => e.data)).toEqual([
      { userUuid: user.uuid, status: user.status },
    ]);
    expect(about(Topics.KycUserRegistered, other.uuid).map((e) => e.data)).toEqual([
      expect.objectContaining({ holderName: expect.stringMatching(/^v1\./) }),
    ]);

    // a decision on an erased user is refused with a problem, not a 500
    const decide = await t.app.inject({
      method: 'POST',
      url: `/admin/kyc-users/${user.uuid}/decision`,
      headers: operatorHeaders('POST', `/admin/kyc-users/${user.uuid}/decision`),
      payload: { status: 'APPROVED', reason: 'x' },
    });
    expect(decide.statusCode).toBe(410);
  });

  it('answers problems, never a 500', async () => {
    expect((await erase(randomUUID())).statusCode).toBe(404);
    expect((await erase('not-a-uuid')).statusCode).toBe(400);
    expect((await erase(randomUUID(), {})).statusCode).toBe(401);
  });
});
