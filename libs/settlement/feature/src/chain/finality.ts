import { Inject, Injectable, Logger } from '@nestjs/common';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';

// The highest block whose transactions count as final, so a receipt in it may end the order.
// SETTLEMENT_FINALITY=safe|finalized asks the node for that block (a reorg cannot drop it, by the
// chain's own rules: an L2's batch posted to L1, an L1 checkpoint); a node that does not offer the
// tag falls back to CHAIN_CONFIRMATIONS, logged once. 'confirmations' counts blocks on top.
@Injectable()
export class Finality {
  private readonly log = new Logger('SettlementWorker');
  private tagMissing = false;

  constructor(
    private readonly chain: ChainClient,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async finalHeight(): Promise<number> {
    const tag = this.config.finality;
    if (tag !== 'confirmations' && !this.tagMissing) {
      const tagged = await this.chain.taggedBlockNumber(tag);
      if (tagged !== null) return tagged;
      this.tagMissing = true;
      this.log.warn(
        `the RPC node does not offer the '${tag}' block; finality falls back to ${this.config.confirmations} confirmation(s)`,
      );
    }
    return (await this.chain.blockNumber()) - this.config.confirmations + 1;
  }
}
