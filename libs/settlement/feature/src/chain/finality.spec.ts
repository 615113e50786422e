import { loadChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';
import { Finality } from './finality';

describe('Finality', () => {
  const config = (finality: string) =>
    loadChainSettlementConfig({
      DATABASE_URL: 'postgres://localhost/x',
      USDC_ADDRESS: '0x' + '12'.repeat(20),
      SETTLEMENT_SIGNER_KEY: '0x' + 'ab'.repeat(32),
      CHAIN_CONFIRMATIONS: '3',
      SETTLEMENT_FINALITY: finality,
    });
  const chain = (tagged: number | null) => {
    const asked: string[] = [];
    const client = {
      taggedBlockNumber: (tag: string) => {
        asked.push(tag);
        return Promise.resolve(tagged);
      },
      blockNumber: () => Promise.resolve(100),
    } as unknown as ChainClient;
    return { client, asked };
  };

  it("takes the node's safe or finalized block when it offers it", async () => {
    const { client, asked } = chain(90);
    expect(await new Finality(client, config('safe')).finalHeight()).toBe(90);
    expect(asked).toEqual(['safe']);
  });

  it('falls back to confirmations when the node does not offer the tag, and stops asking', async () => {
    const { client, asked } = chain(null);
    const finality = new Finality(client, config('finalized'));
    expect(await finality.finalHeight()).toBe(98); // head 100, 3 confirmations: block 98 has them
    expect(await finality.finalHeight()).toBe(98);
    expect(asked).toEqual(['finalized']);
  });

  it('counts confirmations by default', async () => {
    const { client, asked } = chain(50);
    expect(await new Finality(client, config('confirmations')).finalHeight()).toBe(98);
    expect(asked).toEqual([]);
  });
});
