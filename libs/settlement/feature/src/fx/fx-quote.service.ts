import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { FxQuote, quote } from '@onramp/settlement-domain';

import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig } from '../config';
import { FX_RATE_PROVIDER, FxRateProvider } from './fx-rate.provider';
import { FxQuoteRow, recordFxQuote } from './fx-quotes.repository';

// Prices a payout with the provider's current rate and our fee; a rate past its max age throws
// StaleFxRateError (it is never used).
@Injectable()
export class FxQuoteService {
  constructor(
    @Inject(FX_RATE_PROVIDER) private readonly provider: FxRateProvider,
    @Inject(CHAIN_SETTLEMENT_CONFIG) private readonly config: ChainSettlementConfig,
  ) {}

  async quote(payedAmount: string, now: Date = new Date()): Promise<FxQuote & { source: string }> {
    const rate = await this.provider.currentRate();
    const q = quote({
      fxRateBase: rate.rate,
      fee: this.config.fxFee,
      payedAmount,
      updatedAt: rate.updatedAt,
      now,
      maxAgeSeconds: this.config.fxRateMaxAgeSeconds,
    });
    return { ...q, source: rate.source };
  }

  // Audit trail: which rate, fee and source priced which order.
  async log(
    manager: EntityManager,
    orderUuid: string,
    payedAmount: string,
    q: FxQuote & { source: string },
  ): Promise<void> {
    await recordFxQuote(manager, this.auditRow(orderUuid, payedAmount, q));
  }

  // The audit row of a quote, for a caller that writes it in a statement of its own.
  auditRow(orderUuid: string, payedAmount: string, q: FxQuote & { source: string }): FxQuoteRow {
    return { orderUuid, payedAmount, fee: this.config.fxFee, quote: q };
  }
}
