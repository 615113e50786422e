import { randomBytes } from 'node:crypto';

import { constantTimeEqual, FieldCipher } from './field-cipher';

describe('FieldCipher', () => {
  const cipher = new FieldCipher(randomBytes(32).toString('hex'));

  it('round-trips and hides the plaintext', () => {
    const sealed = cipher.encrypt('Ada Lovelace', 'user-1');
    expect(sealed).not.toContain('Ada Lovelace'); // whole: 'Ada' alone turns up in random base64url
    expect(cipher.decrypt(sealed, 'user-1')).toBe('Ada Lovelace');
  });

  it('refuses tampering, a wrong context and a wrong key', () => {
    const sealed = cipher.encrypt('secret', 'a');
    expect(() => cipher.decrypt(sealed, 'b')).toThrow();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('xxxxxx').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'a')).toThrow();
    expect(() => new FieldCipher(randomBytes(32).toString('base64')).decrypt(sealed, 'a')).toThrow();
  });

  it('opens values of every key of its ring, seals with the first, and says which values are stale', () => {
    const oldKey = randomBytes(32).toString('hex');
    const newKey = randomBytes(32).toString('base64');
    const before = new FieldCipher(oldKey).encrypt('Ada', 'u1');
    const ring = new FieldCipher([newKey, oldKey]);
    expect(ring.decrypt(before, 'u1')).toBe('Ada');
    expect(ring.isStale(before)).toBe(true);
    const after = ring.encrypt('Ada', 'u1');
    expect(ring.isStale(after)).toBe(false);
    expect(FieldCipher.keyIdOf(after)).toBe(ring.keyId);
    expect(() => new FieldCipher(oldKey).decrypt(after, 'u1')).toThrow(/key id/);
  });

  it('rejects short keys', () => {
    expect(() => new FieldCipher('abcd')).toThrow();
  });

  it('compares in constant time', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
  });
});
