import { createPublicKey, randomUUID } from 'node:crypto';

import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { decode, JwtPayload, verify } from 'jsonwebtoken';

import { createAuthApp, loadAuthConfig } from '@onramp/auth-feature';
import { createDatabase, operatorHeaders } from '@onramp/testing';


// Integration-test helpers: the real auth app on a fresh database, and the calls tests repeat.
// Admin calls carry what the gateway's admin listener adds (operatorHeaders).

export interface Jwk {
  kid: string;
  kty: string;
  crv: string;
  x: string;
  y: string;
  alg: string;
  use: string;
}

export interface CreatedMerchant {
  merchantId: string;
  merchantSecret: string;
  name: string;
  createdAt: string;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

// The real auth app from a config built for the test: the suite's environment (Postgres from the
// global setup) and what the test sets on top; the process environment stays as it was.
export async function bootAuth(env: NodeJS.ProcessEnv): Promise<NestFastifyApplication> {
  const config = loadAuthConfig({ ...process.env, ...env });
  const instance = await createAuthApp({
    ...config,
    runtime: { ...config.runtime, logging: { ...config.runtime.logging, level: 'warn' } },
  });
  await instance.listen(0, '127.0.0.1');
  return instance;
}

export interface AuthHarness {
  app: NestFastifyApplication;
  databaseUrl: string;
  demo: { id: string; secret: string };
  // What auth was booted with (AUTH_URL pointing at it, for a verifier of its tokens); boot() starts
  // another instance with it and the given overrides.
  env: NodeJS.ProcessEnv;
  boot(overrides?: NodeJS.ProcessEnv): Promise<NestFastifyApplication>;
  createMerchant(name: string): Promise<CreatedMerchant>;
  token(
    authorization: string,
    extra?: { payload?: string; contentType?: string },
  ): ReturnType<NestFastifyApplication['inject']>;
  admin(method: 'GET' | 'POST', url: string): ReturnType<NestFastifyApplication['inject']>;
  jwks(): Promise<{ keys: Jwk[] }>;
  verifyWithJwks(accessToken: string): Promise<JwtPayload>;
  stop(): Promise<void>;
}

// Boots auth with its own database and environment; stop() closes it.
export async function startAuthHarness(): Promise<AuthHarness> {
  const databaseUrl = await createDatabase(process.env.DATABASE_URL!);
  const demo = { id: randomUUID(), secret: 'demo-secret-for-tests' };
  const env: NodeJS.ProcessEnv = {
    DATABASE_URL: databaseUrl,
    ONRAMP_MODE: 'sandbox',
    DEMO_MERCHANT_ID: demo.id,
    DEMO_MERCHANT_SECRET: demo.secret,
    AUTH_TOKEN_TTL_SECONDS: undefined,
    AUTH_KEY_ENCRYPTION_KEY: undefined,
    JWT_ISSUER: undefined,
    JWT_AUDIENCE: undefined,
  };
  const app = await bootAuth(env);
  env.AUTH_URL = await app.getUrl();

  const jwks = async () =>
    (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{ keys: Jwk[] }>();
  return {
    app,
    databaseUrl,
    demo,
    env,
    boot: (overrides = {}) => bootAuth({ ...env, ...overrides }),
    jwks,
    async createMerchant(name) {
      const res = await app.inject({
        method: 'POST',
        url: '/admin/merchants',
        headers: operatorHeaders('POST', '/admin/merchants'),
        payload: { name },
      });
      expect(res.statusCode).toBe(201);
      return res.json<CreatedMerchant>();
    },
    token: (authorization, extra = {}) =>
      app.inject({
        method: 'POST',
        url: '/auth/token',
        headers: { authorization, ...(extra.contentType ? { 'content-type': extra.contentType } : {}) },
        payload: extra.payload,
      }),
    admin: (method, url) => app.inject({ method, url, headers: operatorHeaders(method, url) }),
    async verifyWithJwks(accessToken) {
      const kid = decode(accessToken, { complete: true })?.header.kid;
      const jwk = (await jwks()).keys.find((k) => k.kid === kid);
      if (!jwk) throw new Error(`kid ${String(kid)} is not in the JWKS`);
      const publicKey = createPublicKey({
        key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
        format: 'jwk',
      });
      return verify(accessToken, publicKey, {
        algorithms: ['ES256'],
        issuer: 'onramp-auth',
        audience: 'onramp-api',
      }) as JwtPayload;
    },
    async stop() {
      await app.close();
    },
  };
}
