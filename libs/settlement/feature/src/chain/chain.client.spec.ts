import { JsonRpcProvider } from 'ethers';

import { ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';

// fees() on nodes unlike anvil (no base fee, no suggested tip): the node is the provider's send,
// answering per method (chain.client.int-spec.ts checks the rest against a real node).
describe('ChainClient.fees', () => {
  let answers: Record<string, unknown>;
  let client: ChainClient;

  beforeEach(() => {
    jest.spyOn(JsonRpcProvider.prototype, 'send').mockImplementation(async (method: string) => {
      const answer = answers[method];
      if (answer instanceof Error) throw answer;
      return answer;
    });
    client = new ChainClient({
      rpcUrl: 'http://127.0.0.1:1',
      chainId: 31337,
      usdcAddress: '0x' + '11'.repeat(20),
      rpcTimeoutMs: 1_000,
    } as ChainSettlementConfig);
  });

  afterEach(() => {
    client.onApplicationShutdown();
    jest.restoreAllMocks();
  });

  it("takes twice the base fee plus the node's tip", async () => {
    answers = {
      eth_getBlockByNumber: { baseFeePerGas: '0x64' },
      eth_maxPriorityFeePerGas: '0x5',
      eth_gasPrice: '0x70',
    };
    expect(await client.fees()).toEqual({ maxFeePerGas: 205n, maxPriorityFeePerGas: 5n });
  });

  it('tips 1 gwei when the node suggests none', async () => {
    answers = {
      eth_getBlockByNumber: { baseFeePerGas: '0x64' },
      eth_maxPriorityFeePerGas: new Error('method not found'),
      eth_gasPrice: '0x70',
    };
    expect(await client.fees()).toEqual({
      maxFeePerGas: 200n + 1_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    });
  });

  it('prices by gas price without a base fee (or a zero one, as ethers does)', async () => {
    for (const block of [{}, { baseFeePerGas: '0x0' }, null]) {
      answers = { eth_getBlockByNumber: block, eth_maxPriorityFeePerGas: '0x5', eth_gasPrice: '0x70' };
      expect(await client.fees()).toEqual({ gasPrice: 112n });
    }
  });

  it('throws when the node reports neither', async () => {
    answers = {
      eth_getBlockByNumber: {},
      eth_maxPriorityFeePerGas: new Error('method not found'),
      eth_gasPrice: new Error('method not found'),
    };
    await expect(client.fees()).rejects.toThrow('the RPC node reports no fee data');
  });

  it('throws when the latest block cannot be read', async () => {
    answers = { eth_getBlockByNumber: new Error('node down'), eth_gasPrice: '0x70' };
    await expect(client.fees()).rejects.toThrow('node down');
  });
});
