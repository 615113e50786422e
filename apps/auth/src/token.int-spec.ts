import { randomUUID } from 'node:crypto';

import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { decode } from 'jsonwebtoken';

import { CurrentMerchant, loadMerchantAuthConfig, MerchantAuthGuard, MerchantAuthModule } from '@onramp/auth';
import { createHttpApp } from '@onramp/http';
import { loadLoggingConfig } from '@onramp/logging';
import { loadTracingConfig } from '@onramp/observability';

import { AuthHarness, basic, startAuthHarness } from './testing/auth-harness';

// A stand-in for any merchant-facing service: the shared guard, verifying through the JWKS endpoint.
@Controller('whoami')
class WhoAmIController {
  @Get()
  @UseGuards(MerchantAuthGuard)
  whoami(@CurrentMerchant() merchantId: string): { merchantId: string } {
    return { merchantId };
  }
}

@Module({ controllers: [WhoAmIController] })
class VerifierModule {}

describe('POST /auth/token (real Postgres)', () => {
  let h: AuthHarness;
  let verifier: NestFastifyApplication;
  const whoami = (accessToken: string) =>
    verifier.inject({ method: 'GET', url: '/whoami', headers: { authorization: `Bearer ${accessToken}` } });

  beforeAll(async () => {
    h = await startAuthHarness(); // its env points AUTH_URL at it, for the verifier's JWKS fetch
    const env = { ...process.env, ...h.env };
    const verifierModule = {
      module: VerifierModule,
      imports: [MerchantAuthModule.forRoot(loadMerchantAuthConfig(env))],
    };
    verifier = await createHttpApp(verifierModule, {
      name: 'verifier',
      port: 0,
      logging: { ...loadLoggingConfig(env), level: 'warn' },
      tracing: loadTracingConfig(env),
    });
    await verifier.init();
    await verifier.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await verifier?.close();
    await h?.stop();
  });

  it('trades merchant credentials for an ES256 access token the services accept', async () => {
    const merchant = await h.createMerchant('Acme GmbH');
    expect(merchant).toEqual({
      merchantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      merchantSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: 'Acme GmbH',
      createdAt: expect.any(String),
    });

    const res = await h.token(basic(merchant.merchantId, merchant.merchantSecret));
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json<{ access_token: string; token_type: string; expires_in: number }>();
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 900 });

    const header = decode(body.access_token, { complete: true })?.header;
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.any(String) });
    const claims = await h.verifyWithJwks(body.access_token);
    expect(claims).toMatchObject({
      sub: merchant.merchantId,
      token_use: 'merchant_access',
      jti: expect.any(String),
    });
    expect(claims.exp! - claims.iat!).toBe(900);

    // the shared verifier every service uses accepts it, and rejects a forged one
    const ok = await whoami(body.access_token);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ merchantId: merchant.merchantId });
    const [head, , signature] = body.access_token.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ ...claims, sub: randomUUID() })).toString('base64url');
    expect((await whoami(`${head}.${forgedPayload}.${signature}`)).statusCode).toBe(401);
  });

  it('answers 401 with WWW-Authenticate: Basic for wrong, unknown or missing credentials', async () => {
    const merchant = await h.createMerchant('Wrong Secret Ltd');
    for (const authorization of [
      basic(merchant.merchantId, 'not-the-secret'),
      basic(randomUUID(), merchant.merchantSecret),
      basic('not-a-uuid', 'x'),
      'Basic !!!',
      `Bearer ${merchant.merchantSecret}`,
      '',
    ]) {
      const res = await h.token(authorization);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Basic realm="onramp"');
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
    }
  });

  it('accepts the OAuth form body and JSON or empty bodies, and refuses other grant types', async () => {
    const m = await h.createMerchant('Form Body AG');
    const auth = basic(m.merchantId, m.merchantSecret);
    const form = 'application/x-www-form-urlencoded';
    const json = 'application/json';
    expect(
      (await h.token(auth, { payload: 'grant_type=client_credentials', contentType: form })).statusCode,
    ).toBe(200);
    const jsonBody = '{"grant_type":"client_credentials"}';
    expect((await h.token(auth, { payload: jsonBody, contentType: json })).statusCode).toBe(200);
    expect((await h.token(auth, { payload: '', contentType: json })).statusCode).toBe(200);
    const refused = await h.token(auth, {
      payload: 'grant_type=password&username=a&password=b',
      contentType: form,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json()).toMatchObject({ status: 400, errors: [{ field: 'grant_type' }] });
    // The JSON guard every service applies holds here too (auth reads an empty JSON body as {}).
    const deep = `{"grant_type":"client_credentials","x":${'['.repeat(2000)}${']'.repeat(2000)}}`;
    const nul = '{"grant_type":"client_\\u0000credentials"}';
    for (const payload of [deep, nul]) {
      const res = await h.token(auth, { payload, contentType: json });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
  });

  it('keeps tokens signed by a rotated signing key verifiable', async () => {
    const m = await h.createMerchant('Key Rotation SA');
    const issue = async () =>
      (await h.token(basic(m.merchantId, m.merchantSecret))).json<{ access_token: string }>().access_token;
    const before = await issue();
    const rotate = await h.admin('POST', '/admin/signing-keys/rotate');
    expect(rotate.statusCode).toBe(200);
    const newKid = rotate.json<{ kid: string }>().kid;
    const after = await issue();

    expect(decode(after, { complete: true })?.header.kid).toBe(newKid);
    expect(decode(before, { complete: true })?.header.kid).not.toBe(newKid);
    await expect(h.verifyWithJwks(before)).resolves.toMatchObject({ sub: m.merchantId });
    await expect(h.verifyWithJwks(after)).resolves.toMatchObject({ sub: m.merchantId });

    // Services learn the new kid on their next JWKS refetch, which the shared cache allows at most
    // every 5 s: the old key's tokens pass at once, the new key's once that window has passed.
    expect((await whoami(before)).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5200));
    expect((await whoami(after)).statusCode).toBe(200);
    expect((await whoami(before)).statusCode).toBe(200);
  });
});
