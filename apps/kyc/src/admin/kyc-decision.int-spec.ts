import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { Topics } from '@onramp/contracts';
import { eventsAbout, operatorHeaders, publishedEvents, TEST_OPERATOR } from '@onramp/testing';

import { adultApplicant, KycTestApp, startKycTestApp } from '../testing/kyc-test-app';

describe('KYC decisions by an operator (integration)', () => {
  let t: KycTestApp;
  const merchant = randomUUID();

  const decide = (
    uuid: string,
    body: unknown,
    headers: Record<string, string> = operatorHeaders('POST', `/admin/kyc-users/${uuid}/decision`),
  ) =>
    t.app.inject({
      method: 'POST',
      url: `/admin/kyc-users/${uuid}/decision`,
      headers,
      payload: body as object,
    });

  beforeAll(async () => {
    t = await startKycTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records who decided and when, and announces kyc.user.status-changed with a growing version', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/kyc/add',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
      payload: adultApplicant(),
    });
    const user = created.json<{ uuid: string; status: string }>();

    const rejected = await decide(
      user.uuid,
      { status: 'REJECTED', reason: 'document expired' },
      operatorHeaders('POST', `/admin/kyc-users/${user.uuid}/decision`, { id: 'alice', scopes: ['kyc'] }),
    );
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json()).toMatchObject({
      uuid: user.uuid,
      status: 'REJECTED',
      previousStatus: user.status,
      statusVersion: 1,
      decidedBy: 'alice',
      changed: true,
    });

    // the same decision again changes nothing and announces nothing
    const again = await decide(user.uuid, { status: 'REJECTED', reason: 'document expired' });
    expect(again.json()).toMatchObject({ status: 'REJECTED', statusVersion: 1, changed: false });

    const approved = await decide(user.uuid, { status: 'APPROVED', reason: 'new passport checked' });
    expect(approved.json()).toMatchObject({
      status: 'APPROVED',
      previousStatus: 'REJECTED',
      statusVersion: 2,
      decidedBy: TEST_OPERATOR.id,
    });

    const shown = await t.app.inject({
      method: 'GET',
      url: `/kyc/${user.uuid}`,
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant)}` },
    });
    expect(shown.json()).toMatchObject({ status: 'APPROVED', statusReason: 'new passport checked' });

    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const history = await db.query(
        `SELECT status, status_version, decided_by FROM kyc.kyc_decisions WHERE user_uuid = $1 ORDER BY status_version`,
        [user.uuid],
      );
      expect(history.rows).toEqual([
        { status: 'REJECTED', status_version: 1, decided_by: 'alice' },
        { status: 'APPROVED', status_version: 2, decided_by: TEST_OPERATOR.id },
      ]);
      // the event is written in the decision's transaction and published by the relay
      const published = await publishedEvents((sql) => db.query(sql), 'kyc', [Topics.KycUserStatusChanged]);
      const events = eventsAbout(published, [user.uuid])
        .map((e) => e.envelope as { merchantId: string; data: { statusVersion: number } })
        .sort((x, y) => x.data.statusVersion - y.data.statusVersion);
      expect(events).toEqual([
        expect.objectContaining({
          merchantId: merchant,
          data: expect.objectContaining({
            status: 'REJECTED',
            statusVersion: 1,
            reason: 'document expired',
            decidedBy: 'alice',
          }),
        }),
        expect.objectContaining({
          merchantId: merchant,
          data: expect.objectContaining({ status: 'APPROVED', previousStatus: 'REJECTED', statusVersion: 2 }),
        }),
      ]);
    } finally {
      await db.end();
    }
  });

  it('answers problems, never a 500', async () => {
    expect((await decide(randomUUID(), { status: 'APPROVED', reason: 'x' })).statusCode).toBe(404);
    expect((await decide('not-a-uuid', { status: 'APPROVED', reason: 'x' })).statusCode).toBe(400);
    expect((await decide(randomUUID(), { status: 'PENDING_REVIEW', reason: 'x' })).statusCode).toBe(400);
    expect((await decide(randomUUID(), { status: 'APPROVED' })).statusCode).toBe(400);
    expect((await decide(randomUUID(), { status: 'APPROVED', reason: 'x' }, {})).statusCode).toBe(401);
  });
});
