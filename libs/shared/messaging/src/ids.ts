import { randomBytes } from 'node:crypto';

import { pooledRandomBytes } from '@onramp/crypto';

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
