import { createHash, generateKeyPairSync } from 'node:crypto';

import { JWT_ALGORITHM } from '@onramp/auth';

export interface PublicJwk {
  kid: string;
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  alg: typeof JWT_ALGORITHM;
  use: 'sig';
}

export interface GeneratedKey {
  kid: string;
  privateKeyPem: string;
  publicJwk: PublicJwk;
}

// RFC 7638 thumbprint: the kid is derived from the key, so it is stable and collision-free.
export function jwkThumbprint(jwk: { crv: string; kty: string; x: string; y: string }): string {
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

export function generateSigningKey(): GeneratedKey {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y)
    throw new Error('unexpected EC public key export');
  const kid = jwkThumbprint({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return {
    kid,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicJwk: { kid, kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, alg: JWT_ALGORITHM, use: 'sig' },
  };
}
