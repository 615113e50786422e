import { Contract, Interface, JsonRpcProvider, parseEther, Wallet, zeroPadValue } from 'ethers';

import { deployTestUsdc, ERC20_ABI, localProvider, setEthBalance, TEST_USDC_ABI } from '@onramp/chain';

// A test USDC of our own (fresh owner, fresh token) on the run's chain, so balances and Transfer
// logs seen by this suite are only ours, and we may blacklist whom we like.
export interface TestChain {
  rpcUrl: string;
  chainId: number;
  provider: JsonRpcProvider;
  usdcAddress: string;
  usdc: Contract; // connected to the owner: mint, blacklist
  newFundedWallet(usdcBaseUnits?: bigint): Promise<Wallet>;
  mint(to: string, baseUnits: bigint): Promise<void>;
  blacklist(account: string): Promise<void>;
  balanceOf(account: string): Promise<bigint>;
  transfersTo(account: string): Promise<Array<{ txHash: string; value: bigint }>>;
  // What chain-settlement needs to pay on this chain from the wallet of signerKey, its worker
  // polling every 100 ms; a suite adds or overrides the rest (a proxy's RPC_URL, caps...).
  settlementEnv(signerKey: string): Record<string, string>;
  close(): void;
}

const transferEvent = new Interface(ERC20_ABI).getEvent('Transfer');

// On the run's shared anvil by default, or on another node (a suite's own anvil, whose mining it may stop).
export async function setUpTestChain(rpcUrl = process.env['RPC_URL']): Promise<TestChain> {
  if (!rpcUrl) throw new Error('RPC_URL is not set: run with jest.integration.config.js');
  const owner = Wallet.createRandom();
  await setEthBalance(rpcUrl, owner.address, parseEther('100'));
  const usdcAddress = await deployTestUsdc(rpcUrl, owner.privateKey);
  const provider = localProvider(rpcUrl);
  const chainId = Number((await provider.getNetwork()).chainId);
  const usdc = new Contract(usdcAddress, TEST_USDC_ABI, owner.connect(provider));
  const send = async (fn: string, ...args: unknown[]): Promise<void> => {
    const tx = (await usdc.getFunction(fn)(...args)) as { wait(): Promise<unknown> };
    await tx.wait();
  };
  const chain: TestChain = {
    rpcUrl,
    chainId,
    provider,
    usdcAddress,
    usdc,
    async newFundedWallet(usdcBaseUnits = 0n) {
      const wallet = Wallet.createRandom();
      await setEthBalance(rpcUrl, wallet.address, parseEther('10'));
      if (usdcBaseUnits > 0n) await chain.mint(wallet.address, usdcBaseUnits);
      return new Wallet(wallet.privateKey);
    },
    mint: (to, baseUnits) => send('mint', to, baseUnits),
    blacklist: (account) => send('blacklist', account),
    balanceOf: async (account) => (await usdc.getFunction('balanceOf')(account)) as bigint,
    async transfersTo(account) {
      const logs = await provider.getLogs({
        address: usdcAddress,
        fromBlock: 0,
        toBlock: 'latest',
        topics: [transferEvent?.topicHash ?? null, null, zeroPadValue(account, 32)],
      });
      return logs.map((l) => ({ txHash: l.transactionHash, value: BigInt(l.data) }));
    },
    settlementEnv: (signerKey) => ({
      RPC_URL: rpcUrl,
      CHAIN_ID: String(chainId),
      USDC_ADDRESS: usdcAddress,
      SETTLEMENT_SIGNER_KEY: signerKey,
      SETTLEMENT_POLL_MS: '100',
    }),
    close: () => provider.destroy(),
  };
  return chain;
}
