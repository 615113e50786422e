import { randomBytes, randomFillSync } from 'node:crypto';

// Random bytes drawn 4 KiB at a time, as crypto.randomUUID does: one call into the CSPRNG for 256
// ids instead of one per id (an order takes several), each pool byte used once. More than a
// quarter of the pool at once is drawn on its own.
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

// RFC 9562 UUID v7: time-ordered, so event ids sort by creation time.
export function uuidv7(now: number = Date.now()): string {
  const bytes = pooledRandomBytes(16);
  // the 48-bit millisecond timestamp, big-endian
  bytes.writeUInt16BE(Math.floor(now / 0x1_0000_0000) & 0xffff, 0);
  bytes.writeUInt32BE(now >>> 0, 2);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// W3C trace context for a new trace; services pass the incoming one on when they have it.
export function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}
