import { randomBytes, randomFillSync } from 'node:crypto';

// Random bytes drawn 4 KiB at a time, as crypto.randomUUID does: one call into the CSPRNG for many
// ids, IVs or payment references instead of one each (an order and a payout take several), each
// pool byte used once. More than a quarter of the pool at once is drawn on its own.
const POOL = Buffer.alloc(4096);
let poolOffset = POOL.length;

export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL.length / 4) return randomBytes(size);
  if (poolOffset + size > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const bytes = Buffer.allocUnsafe(size);
  POOL.copy(bytes, 0, poolOffset, poolOffset + size);
  poolOffset += size;
  return bytes;
}
