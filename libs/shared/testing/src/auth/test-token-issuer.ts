import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

import { sign, SignOptions } from 'jsonwebtoken';

import { ACCESS_TOKEN_TYPE, ACCESS_TOKEN_USE, JWT_ALGORITHM } from '@onramp/auth';

export interface TestTokenOptions {
  expiresInSeconds?: number; // default 900; negative for an already expired token
  issuer?: string; // default 'onramp-auth'
  audience?: string; // default 'onramp-api'
  tokenUse?: string; // default 'merchant_access'
  type?: string | null; // JOSE header typ, default 'at+jwt'; null leaves it out
  withoutExpiry?: boolean; // a token with no exp claim at all
  version?: number; // the `ver` claim (token version); absent by default
}

export interface TestTokenIssuer {
  // Set AUTH_URL to this before the app under test builds its auth strategy.
  url: string;
  kid: string;
  tokenFor(merchantId: string, opts?: TestTokenOptions): string;
  // A correctly shaped token signed by a key the JWKS does not publish under that kid.
  forgedTokenFor(merchantId: string): string;
  // As a secret rotation does: tokens of this merchant below `minimumVersion` are revoked.
  revokeBelow(merchantId: string, minimumVersion: number): void;
  close(): Promise<void>;
}

// A stand-in for the auth service in integration tests: serves a real ES256 JWKS over HTTP and
// signs access tokens exactly as the auth service does (libs/shared/auth/src/token-claims.ts).
export async function startTestTokenIssuer(): Promise<TestTokenIssuer> {
  const kid = `test-${randomUUID()}`;
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const jwks = JSON.stringify({
    keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: JWT_ALGORITHM, use: 'sig' }],
  });

  const minimumVersions: Record<string, number> = {};
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    } else if (req.method === 'GET' && req.url === '/.well-known/token-revocations') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ minimumVersions }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const signWith = (key: KeyObject, merchantId: string, opts: TestTokenOptions = {}): string => {
    const options: SignOptions = {
      algorithm: JWT_ALGORITHM,
      keyid: kid,
      header:
        opts.type === null
          ? { alg: JWT_ALGORITHM, kid }
          : { alg: JWT_ALGORITHM, kid, typ: opts.type ?? ACCESS_TOKEN_TYPE },
      issuer: opts.issuer ?? 'onramp-auth',
      audience: opts.audience ?? 'onramp-api',
      subject: merchantId,
      jwtid: randomUUID(),
    };
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      token_use: opts.tokenUse ?? ACCESS_TOKEN_USE,
      iat: now,
      ...(opts.version === undefined ? {} : { ver: opts.version }),
      ...(opts.withoutExpiry ? {} : { exp: now + (opts.expiresInSeconds ?? 900) }),
    };
    return sign(payload, key.export({ format: 'pem', type: 'pkcs8' }).toString(), options);
  };

  return {
    url: `http://127.0.0.1:${port}`,
    kid,
    tokenFor: (merchantId, opts) => signWith(privateKey, merchantId, opts),
    forgedTokenFor: (merchantId) => signWith(forger, merchantId),
    revokeBelow: (merchantId, minimumVersion) => {
      minimumVersions[merchantId] = minimumVersion;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
