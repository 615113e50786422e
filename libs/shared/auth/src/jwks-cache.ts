import { createPublicKey, JsonWebKey, KeyObject } from 'node:crypto';

import { Logger } from '@nestjs/common';

interface Jwks {
  keys: (JsonWebKey & { kid?: string })[];
}

// Public keys of the auth service by kid, fetched over its documented internal HTTP endpoint.
// An unknown kid triggers one refetch (key rotation), at most every few seconds. Keys are kept as
// parsed KeyObjects: a PEM string would be parsed again (createPublicKey) on every token check.
export class JwksCache {
  private readonly log = new Logger(JwksCache.name);
  private keys = new Map<string, KeyObject>();
  private lastFetch = 0;

  constructor(
    private readonly jwksUrl: string,
    private readonly minRefetchMs = 5000,
  ) {}

  // The key of this kid as last fetched, without fetching.
  current(kid: string): KeyObject | undefined {
    return this.keys.get(kid);
  }

  async getKey(kid: string): Promise<KeyObject | undefined> {
    const cached = this.keys.get(kid);
    if (cached) return cached;
    if (Date.now() - this.lastFetch < this.minRefetchMs && this.keys.size > 0) return undefined;
    await this.refresh();
    return this.keys.get(kid);
  }

  private async refresh(): Promise<void> {
    this.lastFetch = Date.now();
    try {
      const res = await fetch(this.jwksUrl, { signal: AbortSignal.timeout(3000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const jwks = (await res.json()) as Jwks;
      const next = new Map<string, KeyObject>();
      for (const jwk of jwks.keys) {
        if (!jwk.kid) continue;
        next.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
      }
      this.keys = next;
    } catch (err) {
      this.lastFetch = 0; // let the next request try again
      this.log.warn(`cannot fetch JWKS from ${this.jwksUrl}: ${(err as Error).message}`);
    }
  }
}
