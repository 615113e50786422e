import { ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';
import { RecipientScreening, SCREENING_CLEAN_TTL_MS } from './recipient-screening';

const CLEAN = '0x00000000000000000000000000000000000000c1';
const LISTED = '0x00000000000000000000000000000000000000b1';
const SANCTIONED = '0x00000000000000000000000000000000000000d1';

// The token's "not blacklisted" answer is reused for SCREENING_CLEAN_TTL_MS; a "listed" answer
// and the sanctioned list never are.
describe('RecipientScreening', () => {
  const asked: string[] = [];
  const chain = {
    isBlacklisted: async (a: string) => {
      asked.push(a);
      return a === LISTED;
    },
  } as unknown as ChainClient;
  const config = {
    sanctionedAddresses: new Set([SANCTIONED]),
    usdcBlacklistCheck: true,
    usdcAddress: '0x00000000000000000000000000000000000000aa',
  } as unknown as ChainSettlementConfig;

  beforeEach(() => {
    asked.length = 0;
    jest.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => jest.useRealTimers());

  it('asks the token once per window for a clean recipient, every time for a listed one', async () => {
    const screening = new RecipientScreening(chain, config);
    expect((await screening.refusals([CLEAN, LISTED, SANCTIONED])).size).toBe(2);
    expect(asked).toEqual([CLEAN, LISTED]);

    jest.setSystemTime(1_000_000 + SCREENING_CLEAN_TTL_MS - 1);
    const again = await screening.refusals([CLEAN.toUpperCase().replace('0X', '0x'), LISTED, SANCTIONED]);
    expect([...again.keys()].sort()).toEqual([LISTED, SANCTIONED].sort());
    expect(asked).toEqual([CLEAN, LISTED, LISTED]);

    jest.setSystemTime(1_000_000 + SCREENING_CLEAN_TTL_MS);
    await screening.refusals([CLEAN]);
    expect(asked).toEqual([CLEAN, LISTED, LISTED, CLEAN]);
  });
});
