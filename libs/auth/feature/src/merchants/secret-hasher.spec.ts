import { SecretHasher } from './secret-hasher';

describe('SecretHasher', () => {
  const hasher = new SecretHasher();

  it('stores argon2id hashes that verify the right secret only', async () => {
    const stored = await hasher.hash('s3cret');
    expect(stored.startsWith('$argon2id$')).toBe(true);
    await expect(hasher.verify(stored, 's3cret')).resolves.toBe(true);
    await expect(hasher.verify(stored, 's3cret!')).resolves.toBe(false);
  });

  it('never authenticates without a stored hash, or with a corrupt one', async () => {
    await expect(hasher.verify(undefined, 'anything')).resolves.toBe(false);
    await expect(hasher.verify('not-a-phc-string', 'anything')).resolves.toBe(false);
  });
});
