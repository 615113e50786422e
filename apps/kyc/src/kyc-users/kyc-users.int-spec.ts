import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { SERVICE_CREDENTIAL_HEADER, signServiceRequest } from '@onramp/auth';
import { DEVELOPMENT_KEYS } from '@onramp/crypto';

import { adultApplicant, KycTestApp, startKycTestApp } from '../testing/kyc-test-app';

describe('KYC users API (integration)', () => {
  let t: KycTestApp;
  const merchant = randomUUID();
  const auth = (merchantId = merchant) => ({ authorization: `Bearer ${t.issuer.tokenFor(merchantId)}` });
  const add = (body: unknown, merchantId = merchant, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/kyc/add',
      headers: { ...auth(merchantId), ...headers },
      payload: body as object,
    });

  beforeAll(async () => {
    t = await startKycTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses requests without a valid merchant token', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/kyc/get-all' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.headers['content-type']).toContain('application/problem+json');
    const forged = await t.app.inject({
      method: 'GET',
      url: '/kyc/get-all',
      headers: { authorization: `Bearer ${t.issuer.forgedTokenFor(merchant)}` },
    });
    expect(forged.statusCode).toBe(401);
    const expired = await t.app.inject({
      method: 'GET',
      url: '/kyc/get-all',
      headers: { authorization: `Bearer ${t.issuer.tokenFor(merchant, { expiresInSeconds: -60 })}` },
    });
    expect(expired.statusCode).toBe(401);
  });

  it('registers an adult as APPROVED and returns the full KYC object', async () => {
    const res = await add(adultApplicant({ externalId: `ext-${randomUUID()}`, nationality: 'de' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalId: expect.stringMatching(/^ext-/),
      ...adultApplicant(), // as registered, the nationality upper-cased
      status: 'APPROVED',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updatedAt: body.createdAt,
    });

    const fetched = await t.app.inject({ method: 'GET', url: `/kyc/${body.uuid}`, headers: auth() });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.json()).toEqual(body);
  });

  it('accepts the minimal request (no externalId, phone, line2 or document)', async () => {
    const { phone: _p, document: _d, ...minimal } = adultApplicant();
    const res = await add(minimal);
    expect(res.statusCode).toBe(201);
    expect(res.json()).not.toHaveProperty('document');
    expect(res.json()).not.toHaveProperty('externalId');
    expect(res.json().status).toBe('APPROVED');
  });

  it('rejects a minor and an expired document, with the reason', async () => {
    const minorBirth = new Date(Date.now() - 10 * 365 * 86_400_000).toISOString().slice(0, 10);
    const minor = await add(adultApplicant({ dateOfBirth: minorBirth }));
    expect(minor.statusCode).toBe(201);
    expect(minor.json()).toMatchObject({ status: 'REJECTED', statusReason: 'applicant is under 18' });

    const expired = await add(
      adultApplicant({
        document: { type: 'ID_CARD', number: 'L01X00T47', issuingCountry: 'DE', expiryDate: '2020-01-01' },
      }),
    );
    expect(expired.json()).toMatchObject({
      status: 'REJECTED',
      statusReason: 'identity document has expired',
    });
  });

  it('answers 400 with one error per bad field, nested fields included', async () => {
    const res = await add({
      lastName: '',
      dateOfBirth: '2001-02-30',
      nationality: 'XX',
      email: 'not-an-email',
      phone: '12345',
      address: { line1: 'Somewhere 1', city: 'Berlin', postalCode: '10115' },
      document: { type: 'VISA', number: 'X', issuingCountry: 'DE', expiryDate: '31.12.2030' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    const fields = (res.json().errors as { field: string }[]).map((e) => e.field);
    expect(new Set(fields)).toEqual(
      new Set([
        'firstName',
        'lastName',
        'dateOfBirth',
        'nationality',
        'email',
        'phone',
        'address.country',
        'document.type',
        'document.expiryDate',
      ]),
    );
  });

  it('refuses a birth date in the future, a missing address and a non-object body', async () => {
    const future = await add(adultApplicant({ dateOfBirth: '2999-01-01' }));
    expect(future.statusCode).toBe(400);
    expect(future.json().errors).toEqual([expect.objectContaining({ field: 'dateOfBirth' })]);

    const noAddress = await add(adultApplicant({ address: undefined }));
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.json().errors[0].field).toBe('address');

    const stringAddress = await add(adultApplicant({ address: 'Hauptstrasse 1, Berlin' }));
    expect(stringAddress.statusCode).toBe(400);

    const arrayBody = await add([adultApplicant()]);
    expect(arrayBody.statusCode).toBe(400);
  });

  it('keeps externalId unique per merchant', async () => {
    const externalId = `ext-${randomUUID()}`;
    expect((await add(adultApplicant({ externalId }))).statusCode).toBe(201);
    const again = await add(adultApplicant({ externalId, firstName: 'Janet' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().type).toBe('https://onramp.dev/problems/conflict');
    expect((await add(adultApplicant({ externalId }), randomUUID())).statusCode).toBe(201);
  });

  it('replays the first response for a repeated Idempotency-Key and refuses another body with 409', async () => {
    const merchantId = randomUUID();
    const key = `key-${randomUUID()}`;
    const first = await add(adultApplicant(), merchantId, { 'idempotency-key': key });
    const second = await add(adultApplicant(), merchantId, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());

    const other = await add(adultApplicant({ firstName: 'Someone' }), merchantId, { 'idempotency-key': key });
    expect(other.statusCode).toBe(409);

    // the key belongs to the merchant: another merchant may use the same one
    const elsewhere = await add(adultApplicant(), randomUUID(), { 'idempotency-key': key });
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().uuid).not.toBe(first.json().uuid);

    const list = await t.app.inject({ method: 'GET', url: '/kyc/get-all', headers: auth(merchantId) });
    expect(list.json()).toHaveLength(1);

    // the stored answer is sealed: no name, email, phone, street or document number in clear
    const db = new Client({ connectionString: t.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ body: string; request_hash: string }>(
        `SELECT response_body::text AS body, request_hash FROM kyc.idempotency_keys WHERE merchant_id = $1`,
        [merchantId],
      );
      expect(rows).toHaveLength(1);
      // nothing but the envelope: no field sits beside the ciphertext in clear
      expect(rows[0].body).toMatch(/^\{"sealed": "v1\.[A-Za-z0-9_.-]+"\}$/);
      expect(rows[0].request_hash).toMatch(/^[0-9a-f]{64}$/);
      // values too long to turn up by chance in random base64url ('Doe' did, once in a few hundred runs)
      for (const pii of [
        'jane.doe@example.com',
        '+4915112345678',
        'Hauptstrasse',
        'C01X00T47',
      ])
        expect(rows[0].body + rows[0].request_hash).not.toContain(pii);
    } finally {
      await db.end();
    }
  });

  it('hides other merchants users and answers 400 for a malformed uuid', async () => {
    const created = (await add(adultApplicant())).json();
    const other = await t.app.inject({
      method: 'GET',
      url: `/kyc/${created.uuid}`,
      headers: auth(randomUUID()),
    });
    expect(other.statusCode).toBe(404);
    const unknown = await t.app.inject({ method: 'GET', url: `/kyc/${randomUUID()}`, headers: auth() });
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject({ method: 'GET', url: '/kyc/not-a-uuid', headers: auth() });
    expect(malformed.statusCode).toBe(400);
  });

  it('lists a merchant users newest first, paginated with X-Total-Count and Link', async () => {
    const merchantId = randomUUID();
    const uuids: string[] = [];
    for (const firstName of ['Ann', 'Ben', 'Cid'])
      uuids.push((await add(adultApplicant({ firstName }), merchantId)).json().uuid);
    const get = (query: string) =>
      t.app.inject({ method: 'GET', url: `/kyc/get-all${query}`, headers: auth(merchantId) });

    const all = await get('');
    expect(all.statusCode).toBe(200);
    expect(all.json().map((u: { uuid: string }) => u.uuid)).toEqual([...uuids].reverse());
    expect(all.headers['x-total-count']).toBe('3');

    const page1 = await get('?limit=2');
    expect(page1.json().map((u: { firstName: string }) => u.firstName)).toEqual(['Cid', 'Ben']);
    expect(page1.headers['link']).toContain('</kyc/get-all?limit=2&offset=2>; rel="next"');

    const page2 = await get('?limit=2&offset=2');
    expect(page2.json().map((u: { firstName: string }) => u.firstName)).toEqual(['Ann']);
    expect(page2.headers['link']).toContain('rel="prev"');
    expect(page2.headers['link']).not.toContain('rel="next"');

    expect((await get('?offset=10')).json()).toEqual([]);
    for (const bad of ['?limit=51', '?limit=0', '?limit=abc', '?offset=-1', '?limit=2.5']) {
      const res = await get(bad);
      expect(res.statusCode).toBe(400);
    }
    expect((await get('?limit=50')).statusCode).toBe(200);
  });

  it('answers the internal status lookup only with a service credential, scoped by merchant', async () => {
    const created = (await add(adultApplicant())).json();
    const internal = (url: string, credential = true) =>
      t.app.inject({
        method: 'GET',
        url,
        headers: credential
          ? {
              [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(
                'orders',
                DEVELOPMENT_KEYS.serviceSecret,
                'GET',
                url,
              ),
            }
          : {},
      });
    const anonymous = await internal(`/internal/kyc-users/${created.uuid}?merchantId=${merchant}`, false);
    expect(anonymous.statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/internal/kyc-users/${created.uuid}?merchantId=${merchant}`,
      headers: { [SERVICE_CREDENTIAL_HEADER]: signServiceRequest('orders', 'guess', 'GET', '/x') },
    });
    expect(forged.statusCode).toBe(401);
    // the gateway's credential opens /admin only, never /internal
    const viaGateway = `/internal/kyc-users/${created.uuid}?merchantId=${merchant}`;
    const gateway = await t.app.inject({
      method: 'GET',
      url: viaGateway,
      headers: {
        [SERVICE_CREDENTIAL_HEADER]: signServiceRequest(
          'gateway',
          DEVELOPMENT_KEYS.serviceSecret,
          'GET',
          viaGateway,
        ),
      },
    });
    expect(gateway.statusCode).toBe(401);
    const ok = await internal(`/internal/kyc-users/${created.uuid}?merchantId=${merchant}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ uuid: created.uuid, status: 'APPROVED' });

    const other = await internal(`/internal/kyc-users/${created.uuid}?merchantId=${randomUUID()}`);
    expect(other.statusCode).toBe(404);
    const noMerchant = await internal(`/internal/kyc-users/${created.uuid}`);
    expect(noMerchant.statusCode).toBe(400);
    const malformed = await internal(`/internal/kyc-users/nope?merchantId=${merchant}`);
    expect(malformed.statusCode).toBe(400);
  });
});
