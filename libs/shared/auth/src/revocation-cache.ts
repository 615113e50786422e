import { Logger } from '@nestjs/common';

import { TokenRevocations } from './token-claims';

// The lowest token version each rotated merchant still accepts, from auth's internal
// /.well-known/token-revocations. Fetched before the first verification, then refreshed in the
// background at most every `refreshMs` while tokens are being verified: a rotation takes effect
// everywhere within seconds, not at the token's expiry.
//
// When auth cannot be reached the last known list is kept (a rotation goes through auth, so none
// can have happened that the list misses, beyond the last refresh interval); before the first
// successful fetch nothing is known to be revoked. Both are logged.
export class RevocationCache {
  private readonly log = new Logger(RevocationCache.name);
  private minimumVersions: Record<string, number> = {};
  private fetchedAt = 0;
  private inFlight?: Promise<void>;
  private loaded = false;

  constructor(
    private readonly url: string,
    private readonly refreshMs = 5000,
  ) {}

  async isRevoked(merchantId: string, version: number | undefined): Promise<boolean> {
    if (!this.loaded) await this.refresh();
    else if (Date.now() - this.fetchedAt >= this.refreshMs) void this.refresh();
    const minimum = this.minimumVersions[merchantId];
    return minimum !== undefined && (version ?? 0) < minimum;
  }

  private refresh(): Promise<void> {
    this.inFlight ??= this.fetch().finally(() => (this.inFlight = undefined));
    return this.inFlight;
  }

  private async fetch(): Promise<void> {
    this.fetchedAt = Date.now();
    try {
      const res = await fetch(this.url, { signal: AbortSignal.timeout(3000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as Partial<TokenRevocations>;
      const versions = body.minimumVersions;
      if (!versions || typeof versions !== 'object') throw new Error('no minimumVersions in the answer');
      this.minimumVersions = Object.fromEntries(
        Object.entries(versions).filter(([, v]) => typeof v === 'number' && Number.isInteger(v)),
      );
      this.loaded = true;
    } catch (err) {
      this.log.warn(`cannot fetch token revocations from ${this.url}: ${(err as Error).message}`);
    }
  }
}
