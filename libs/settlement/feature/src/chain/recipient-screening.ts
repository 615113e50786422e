import { Inject, Injectable } from '@nestjs/common';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';

// How the reason of a settlement refused by screening starts: metrics count them by it.
export const RECIPIENT_REFUSED = 'recipient refused:';

// Recipients we must not pay, checked before anything is signed: the configured sanctioned list
// (SETTLEMENT_SANCTIONED_ADDRESSES) and the token's own blacklist (USDC's isBlacklisted), which
// would make the transfer revert after the euros arrived. A refusal is final for the order: it
// fails with this reason and nothing reaches the chain. If the node cannot answer, this throws and
// the settlement is tried again later: never signed unscreened.
@Injectable()
export class RecipientScreening {
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
      else if (this.config.usdcBlacklistCheck) toAsk.push(r);
    }
    // Asked together: one batched JSON-RPC round trip.
    const listed = await Promise.all(toAsk.map((r) => this.chain.isBlacklisted(r)));
    toAsk.forEach((r, i) => {
      if (listed[i])
        refused.set(
          r,
          `${RECIPIENT_REFUSED} ${r} is blacklisted by the USDC contract ${this.config.usdcAddress} ` +
            '(a transfer to it would revert); no payout was sent',
        );
    });
    return refused;
  }
}
