import { Clock } from '../clock';

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

// Refresh a little before expiry so a token never dies in flight: 30 s, or a tenth of a short lifetime.
const refreshMarginMs = (expiresInSeconds: number): number => Math.min(30_000, expiresInSeconds * 100);

// Caches the Bearer token until shortly before it expires; concurrent callers share one token request.
export class TokenCache {
  private cached?: { token: string; refreshAtMs: number };
  private pending?: Promise<string>;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly clock: Clock,
  ) {}

  get(): Promise<string> {
    if (this.cached && this.clock().getTime() < this.cached.refreshAtMs)
      return Promise.resolve(this.cached.token);
    this.pending ??= this.refresh().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  // Drops the token a 401 was answered to; a newer one fetched meanwhile by another call stays.
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async refresh(): Promise<string> {
    const requestedAtMs = this.clock().getTime(); // the lifetime counts from before the request
    const { accessToken, expiresInSeconds } = await this.issue();
    this.cached = {
      token: accessToken,
      refreshAtMs: requestedAtMs + expiresInSeconds * 1000 - refreshMarginMs(expiresInSeconds),
    };
    return accessToken;
  }
}
