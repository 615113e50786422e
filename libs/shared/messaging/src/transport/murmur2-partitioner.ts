// Kafka's default partitioner (the Java client's murmur2, as kafkajs DefaultPartitioner): the
// embedded bus puts a key on the same partition number Kafka would, so per-key ordering reads the same.
export function murmur2(data: Buffer): number {
  const m = 0x5bd1e995;
  let h = 0x9747b28c ^ data.length;
  const whole = data.length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m) ^ k;
  }
  const tail = data.length & 3; // the last 1-3 bytes, highest first (the Java switch falls through)
  if (tail === 3) h ^= data[whole + 2] << 16;
  if (tail >= 2) h ^= data[whole + 1] << 8;
  if (tail >= 1) h = Math.imul(h ^ data[whole], m);
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

// The key's hash as a partition is taken from it (made positive): what an outbox row keeps in
// `key_hash`, so the embedded move's partition is `key_hash % partitions`, as here.
export function keyHash(key: string): number {
  return murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff;
}

export function partitionFor(key: string, partitions: number): number {
  return keyHash(key) % partitions;
}
