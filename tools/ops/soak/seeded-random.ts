import { getAddress, hexlify } from 'ethers';

// mulberry32: small, fast and good enough to make a run repeatable from its --seed (which orders
// are rejected, their amounts and recipients, which app is killed when).
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  // an integer in [min, max]
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  // a fresh EVM address, so each order pays a recipient of its own
  address(): string {
    const bytes = new Uint8Array(20);
    for (let i = 0; i < bytes.length; i++) bytes[i] = this.int(0, 255);
    return getAddress(hexlify(bytes));
  }
}
