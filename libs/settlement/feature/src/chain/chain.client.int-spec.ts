import { Contract, JsonRpcProvider, parseEther, Wallet } from 'ethers';

import { deployTestUsdc, localProvider, setEthBalance, TEST_USDC_ABI } from '@onramp/chain';
import { loadInfraConfig } from '@onramp/platform-infra';

import { ChainSettlementConfig } from '../config';
import { ChainClient } from './chain.client';

// The chain client's plain JSON-RPC calls against ethers' own answers for the same questions, on the
// run's anvil with a test USDC of this suite's own (its owner may mint and blacklist).
describe('ChainClient (integration, anvil)', () => {
  const rpcUrl = loadInfraConfig().chain.rpcUrl as string; // the run's anvil (jest.integration.config.js)
  let provider: JsonRpcProvider;
  let usdc: Contract;
  let client: ChainClient;
  let usdcAddress: string;
  const owner = Wallet.createRandom();
  const holder = Wallet.createRandom().address;

  const clientFor = (token: string, chainId: number): ChainClient =>
    new ChainClient({ rpcUrl, chainId, usdcAddress: token, rpcTimeoutMs: 5_000 } as ChainSettlementConfig);

  beforeAll(async () => {
    await setEthBalance(rpcUrl, owner.address, parseEther('10'));
    usdcAddress = await deployTestUsdc(rpcUrl, owner.privateKey);
    provider = localProvider(rpcUrl);
    usdc = new Contract(usdcAddress, TEST_USDC_ABI, owner.connect(provider));
    await ((await usdc.getFunction('mint')(holder, 123_456_789n)) as { wait(): Promise<unknown> }).wait();
    await setEthBalance(rpcUrl, holder, parseEther('1.5'));
    client = clientFor(usdcAddress, Number((await provider.getNetwork()).chainId));
  });

  afterAll(() => {
    client?.onApplicationShutdown();
    provider?.destroy();
  });

  it('reads balances and nonces as ethers does', async () => {
    expect(await client.usdcBalance(holder)).toBe(123_456_789n);
    expect(await client.usdcBalance(Wallet.createRandom().address)).toBe(0n);
    expect(await client.ethBalance(holder)).toBe(await provider.getBalance(holder));
    expect(await client.nonce(Wallet.createRandom().address, 'pending')).toBe(0n);
    const sent = BigInt(await provider.getTransactionCount(owner.address, 'pending'));
    expect(sent).toBeGreaterThan(0n); // the deployment and the mint
    expect(await client.nonce(owner.address, 'pending')).toBe(sent);
    expect(await client.nonce(owner.address, 'latest')).toBe(sent);
  });

  it('prices fees as getFeeData does', async () => {
    const fee = await provider.getFeeData();
    const ours = await client.fees();
    expect(ours).toEqual({
      maxFeePerGas: fee.maxFeePerGas,
      maxPriorityFeePerGas: fee.maxPriorityFeePerGas,
    });
  });

  it('reads the block heights as ethers does', async () => {
    expect(await client.blockNumber()).toBe(await provider.getBlockNumber());
    for (const tag of ['safe', 'finalized'] as const)
      expect(await client.taggedBlockNumber(tag)).toBe((await provider.getBlock(tag))?.number);
  });

  it("answers the token's blacklist for listed and clean accounts", async () => {
    const listed = Wallet.createRandom().address;
    expect(await client.isBlacklisted(listed)).toBe(false);
    await ((await usdc.getFunction('blacklist')(listed)) as { wait(): Promise<unknown> }).wait();
    expect(await client.isBlacklisted(listed)).toBe(true);
    expect(await client.isBlacklisted(listed.toLowerCase())).toBe(true);
  });

  it('refuses to read a balance from an address with no contract', async () => {
    const nowhere = clientFor(Wallet.createRandom().address, Number((await provider.getNetwork()).chainId));
    try {
      await expect(nowhere.usdcBalance(holder)).rejects.toThrow(/could not decode the uint256 answer/);
      await expect(nowhere.isBlacklisted(holder)).rejects.toThrow(/could not decode the bool answer/);
    } finally {
      nowhere.onApplicationShutdown();
    }
  });
});
