import { createPublicKey, sign, verify } from 'node:crypto';

import { generateSigningKey, jwkThumbprint } from './key-material';

describe('generateSigningKey', () => {
  it('produces a P-256 key whose public JWK verifies what the private key signs', () => {
    const key = generateSigningKey();
    const data = Buffer.from('payload');
    const signature = sign('sha256', data, { key: key.privateKeyPem, dsaEncoding: 'ieee-p1363' });
    const { kty, crv, x, y } = key.publicJwk;
    const publicKey = createPublicKey({ key: { kty, crv, x, y }, format: 'jwk' });
    expect(verify('sha256', data, { key: publicKey, dsaEncoding: 'ieee-p1363' }, signature)).toBe(true);
    expect(key.publicJwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: key.kid });
    expect(key.privateKeyPem).toContain('BEGIN PRIVATE KEY');
  });

  it('gives each key its own kid', () => {
    expect(generateSigningKey().kid).not.toBe(generateSigningKey().kid);
  });
});

describe('jwkThumbprint', () => {
  it('hashes the RFC 7638 canonical members, so member order does not matter', () => {
    const jwk = {
      kty: 'EC',
      crv: 'P-256',
      x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
      y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
    };
    const reordered = { y: jwk.y, x: jwk.x, crv: jwk.crv, kty: jwk.kty };
    expect(jwkThumbprint(jwk)).toBe(jwkThumbprint(reordered));
    expect(jwkThumbprint(jwk)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
