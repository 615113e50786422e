// Recursive Length Prefix, the encoding of Ethereum's transactions: byte strings and lists of them,
// what a signed transfer needs, on bytes rather than ethers' hex strings.
export type RlpItem = Uint8Array | RlpItem[];

export function encodeRlp(item: RlpItem): Buffer {
  if (item instanceof Uint8Array) {
    // a single byte below 0x80 is its own encoding
    if (item.length === 1 && (item[0] as number) < 0x80) return Buffer.from(item);
    return Buffer.concat([lengthPrefix(item.length, 0x80), item]);
  }
  const payload = Buffer.concat(item.map(encodeRlp));
  return Buffer.concat([lengthPrefix(payload.length, 0xc0), payload]);
}

// Up to 55 bytes: one byte, offset + length. Longer: offset + 55 + the length's own length, then the
// length big-endian.
function lengthPrefix(length: number, offset: number): Buffer {
  if (length <= 55) return Buffer.from([offset + length]);
  const len = unsignedBytes(BigInt(length));
  return Buffer.concat([Buffer.from([offset + 55 + len.length]), len]);
}

// An unsigned integer as RLP wants it: big-endian, no leading zero bytes, zero as no bytes at all.
export function unsignedBytes(value: bigint): Buffer {
  if (value < 0n) throw new RangeError(`RLP encodes unsigned integers only, got ${value}`);
  if (value === 0n) return Buffer.alloc(0);
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex');
}

// A fixed-length hex string (0x-prefixed) as bytes, its length checked.
export function hexBytes(hex: string, length?: number): Buffer {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new TypeError(`not hex bytes: ${hex.slice(0, 20)}`);
  const bytes = Buffer.from(hex.slice(2), 'hex');
  if (length !== undefined && bytes.length !== length)
    throw new RangeError(`expected ${length} bytes, got ${bytes.length}`);
  return bytes;
}

// Leading zero bytes dropped: a signature's r and s are integers in a transaction.
export function stripLeadingZeros(bytes: Uint8Array): Buffer {
  let i = 0;
  while (i < bytes.length && bytes[i] === 0) i++;
  return Buffer.from(bytes.subarray(i));
}
