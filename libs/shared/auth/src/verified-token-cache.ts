import { KeyObject } from 'node:crypto';

import { AccessTokenClaims } from './token-claims';

interface Verified {
  claims: AccessTokenClaims;
  key: KeyObject; // the key that verified the signature
  kid: string; // the kid of the token's header: part of its text, so fixed for the entry
}

// Tokens whose signature, algorithm, issuer, audience and claims were verified, by their exact
// text: a merchant sends the same token for up to an hour, and checking its ES256 signature again
// on every request was the largest single cost of the token check. A hit is still refused once the
// token expires (the same clock rule as jsonwebtoken, and the full check then says why), before its
// nbf, or once the key that verified it is no longer the auth service's key of that kid (rotated
// out; its kid is kept, not parsed from the token again); revocation is not cached (the caller asks on every request). Only verified tokens enter, so
// a stranger cannot fill it; at most maxEntries are kept, the oldest dropped first.
export class VerifiedTokenCache {
  private readonly entries = new Map<string, Verified>();

  constructor(private readonly maxEntries = 10_000) {}

  get(
    token: string,
    currentKey: (kid: string) => KeyObject | undefined,
    nowMs = Date.now(),
  ): AccessTokenClaims | undefined {
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    const now = Math.floor(nowMs / 1000);
    const { claims } = hit;
    if (now >= claims.exp || currentKey(hit.kid) !== hit.key) {
      this.entries.delete(token);
      return undefined;
    }
    const nbf = (claims as { nbf?: unknown }).nbf;
    if (typeof nbf === 'number' && nbf > now) return undefined;
    return claims;
  }

  set(token: string, claims: AccessTokenClaims, key: KeyObject, kid: string): void {
    if (this.entries.has(token)) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, { claims, key, kid });
  }
}
