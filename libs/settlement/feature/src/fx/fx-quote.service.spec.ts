import { StaleFxRateError } from '@onramp/settlement-domain';

import { loadChainSettlementConfig } from '../config';
import { FxQuoteService } from './fx-quote.service';
import { FxRateProvider, StaticFxRateProvider } from './fx-rate.provider';

const config = loadChainSettlementConfig({
  DATABASE_URL: 'postgres://localhost/x',
  USDC_ADDRESS: '0x' + '12'.repeat(20),
  SETTLEMENT_SIGNER_KEY: '0x' + 'ab'.repeat(32),
});

describe('FxQuoteService', () => {
  it('prices with the static rate and the configured fee', async () => {
    const service = new FxQuoteService(new StaticFxRateProvider('1.08'), config);
    const q = await service.quote('100.10');
    expect(q).toMatchObject({
      fxRateBase: '1.08',
      fxRateEffective: '1.0692',
      sentTokenAmount: '107.02692',
      source: 'static',
    });
    expect(q.baseUnits).toBe(107_026_920n);
  });

  it('refuses a provider rate older than FX_RATE_MAX_AGE_SECONDS', async () => {
    const old: FxRateProvider = {
      currentRate: async () => ({
        rate: '1.08',
        updatedAt: new Date(Date.now() - 301_000),
        source: 'market',
      }),
    };
    await expect(new FxQuoteService(old, config).quote('10')).rejects.toBeInstanceOf(StaleFxRateError);
  });
});
