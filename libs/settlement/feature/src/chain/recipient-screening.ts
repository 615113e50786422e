import { Inject, Injectable } from '@nestjs/common';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';

// How the reason of a settlement refused by screening starts: metrics count them by it.
export const RECIPIENT_REFUSED = 'recipient refused:';

// How long the token's "not blacklisted" answer for a recipient is reused (docs/security.md,
// Recipient screening). The token enforces its blacklist itself: a transfer to an address listed
// within this window reverts on chain (no USDC moves; the settlement fails as any revert does), so
// staleness costs at worst one reverted transfer's gas, never a payout to a listed address. A
// "listed" answer is never cached (it fails the order, and is asked again for the next one), and
// the sanctioned list (configuration) is checked on every call.
export const SCREENING_CLEAN_TTL_MS = 60_000;
const SCREENING_CACHE_MAX = 10_000; // recipients remembered; the oldest answer goes first

// Recipients we must not pay, checked before anything is signed: the configured sanctioned list
// (SETTLEMENT_SANCTIONED_ADDRESSES) and the token's own blacklist (USDC's isBlacklisted), which
// would make the transfer revert after the euros arrived. A refusal is final for the order: it
// fails with this reason and nothing reaches the chain. If the node cannot answer, this throws and
// the settlement is tried again later: never signed unscreened.
@Injectable()
export class RecipientScreening {
  private readonly cleanUntil = new Map<string, number>(); // lower-cased address -> expiry (ms)

  constructor(
    private readonly chain: ChainClient,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  // The refusal reason per refused recipient (lower-cased address); the others are absent.
  async refusals(recipients: readonly string[]): Promise<Map<string, string>> {
    const unique = [...new Set(recipients.map((r) => r.toLowerCase()))];
    const refused = new Map<string, string>();
    const toAsk: string[] = [];
    for (const r of unique) {
      if (this.config.sanctionedAddresses.has(r))
        refused.set(r, `${RECIPIENT_REFUSED} ${r} is on the sanctioned address list; no payout was sent`);
      else if (this.config.usdcBlacklistCheck && !this.knownClean(r)) toAsk.push(r);
    }
    // Asked together: one batched JSON-RPC round trip.
    const asked = Date.now();
    const listed = await Promise.all(toAsk.map((r) => this.chain.isBlacklisted(r)));
    toAsk.forEach((r, i) => {
      if (!listed[i]) this.rememberClean(r, asked);
      else
        refused.set(
          r,
          `${RECIPIENT_REFUSED} ${r} is blacklisted by the USDC contract ${this.config.usdcAddress} ` +
            '(a transfer to it would revert); no payout was sent',
        );
    });
    return refused;
  }

  private knownClean(recipient: string): boolean {
    const until = this.cleanUntil.get(recipient);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.cleanUntil.delete(recipient);
    return false;
  }

  // From when it was asked, not answered: the answer is at most the TTL old when last used.
  private rememberClean(recipient: string, askedAt: number): void {
    this.cleanUntil.delete(recipient); // re-inserted at the end: eviction goes by age
    this.cleanUntil.set(recipient, askedAt + SCREENING_CLEAN_TTL_MS);
    if (this.cleanUntil.size > SCREENING_CACHE_MAX) {
      const oldest = this.cleanUntil.keys().next().value;
      if (oldest !== undefined) this.cleanUntil.delete(oldest);
    }
  }
}
