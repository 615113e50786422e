// Token buckets per client key: `ratePerSecond` sustained, `burst` at once. Pure, clock injected.
export interface RateLimitPolicy {
  ratePerSecond: number; // 0 disables the limit
  burst: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  at: number; // ms
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly policy: RateLimitPolicy,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  // Off (rate 0): every take is allowed, so callers may skip computing its key at all.
  get enabled(): boolean {
    return this.policy.ratePerSecond > 0;
  }

  take(key: string): RateDecision {
    if (this.policy.ratePerSecond <= 0) return { allowed: true };
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.policy.burst, at: t };
    const refilled = Math.min(this.policy.burst, b.tokens + ((t - b.at) / 1000) * this.policy.ratePerSecond);
    if (refilled < 1) {
      this.buckets.set(key, { tokens: refilled, at: t });
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - refilled) / this.policy.ratePerSecond)),
      };
    }
    this.buckets.delete(key); // re-insert: the Map's order is then least recently used first
    this.buckets.set(key, { tokens: refilled - 1, at: t });
    if (this.buckets.size > this.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
    return { allowed: true };
  }

  // Gives back one token taken by `take` (up to the burst): a reservation that turned out not to
  // count, such as a token request whose credentials were right.
  refund(key: string): void {
    if (this.policy.ratePerSecond <= 0) return;
    const b = this.buckets.get(key);
    if (b) b.tokens = Math.min(this.policy.burst, b.tokens + 1);
  }
}
