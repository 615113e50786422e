import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';

import { pooledRandomBytes } from './pooled-random';

// AES-256-GCM for secrets and PII at rest. Output: "v1.<keyId>.<iv>.<tag>.<ciphertext>" (base64url),
// so a key rotation can tell which key sealed a value. A key ring: the first key seals, every key
// opens what it sealed (found by its id), so a new key can be put first while older values are still
// readable until a rekey has re-sealed them.
export const keyIdOf = (key: Buffer): string =>
  createHash('sha256').update(key).digest('base64url').slice(0, 8);

export class FieldCipher {
  private readonly key: Buffer;
  readonly keyId: string;
  private readonly ring: Map<string, Buffer>;

  constructor(keyMaterial: string | readonly string[]) {
    const materials = typeof keyMaterial === 'string' ? [keyMaterial] : keyMaterial;
    if (materials.length === 0) throw new Error('a key ring needs at least one key');
    const keys = materials.map(parseKey);
    this.key = keys[0];
    this.keyId = keyIdOf(this.key);
    this.ring = new Map(keys.map((k) => [keyIdOf(k), k]));
  }

  // The id of the key that sealed a value (undefined when it is not a sealed value).
  static keyIdOf(sealed: string): string | undefined {
    const [version, keyId] = sealed.split('.');
    return version === 'v1' ? keyId : undefined;
  }

  // True when the value was sealed by another key than the current one: a rekey re-seals it.
  isStale(sealed: string): boolean {
    return FieldCipher.keyIdOf(sealed) !== this.keyId;
  }

  encrypt(plaintext: string, associatedData = ''): string {
    // 96 random bits per value, never reused: drawn from the pool (a CSPRNG call per 341 values, not one each)
    const iv = pooledRandomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(associatedData));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      'v1',
      this.keyId,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      ct.toString('base64url'),
    ].join('.');
  }

  decrypt(sealed: string, associatedData = ''): string {
    const [version, keyId, iv, tag, ct] = sealed.split('.');
    const key = version === 'v1' ? this.ring.get(keyId) : undefined;
    if (!key) throw new Error(`sealed value was not produced with a key of this ring (key id ${keyId})`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(associatedData));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }
}

// Accepts 32 bytes as 64 hex chars or base64/base64url; anything else fails at boot.
export function parseKey(material: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(material)
    ? Buffer.from(material, 'hex')
    : Buffer.from(material, 'base64');
  if (key.length !== 32) throw new Error('encryption key must be 32 bytes (64 hex chars or base64)');
  return key;
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
