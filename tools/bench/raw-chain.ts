import { Contract, HDNodeWallet, Interface, JsonRpcProvider, Wallet } from 'ethers';

import {
  ANVIL_ACCOUNT_2_KEY,
  ANVIL_ACCOUNT_3_KEY,
  ERC20_ABI,
  localProvider,
  TEST_USDC_ABI,
} from '@onramp/chain';

import { sleep } from './stats';

const erc20 = new Interface(ERC20_ABI);
const GAS_LIMIT = 100_000n;

// The chain-side baselines sign with two anvil dev accounts the platform never uses, funded with test
// USDC by the token's owner, so they never contend for the hot wallet's nonces.
export const RAW_SIGNER_KEY = ANVIL_ACCOUNT_2_KEY;
export const FLOOR_SIGNER_KEY = ANVIL_ACCOUNT_3_KEY;

export async function fundBaselineSigners(env: Record<string, string>, usdcEach: bigint): Promise<void> {
  await fundWithUsdc(env, [RAW_SIGNER_KEY, FLOOR_SIGNER_KEY], usdcEach);
}

// Anvil's default mnemonic, public to everyone: its accounts are prefunded with ETH on every anvil.
const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

// The private key of anvil dev account `index` (0: the token's deployer, 1: the platform's hot wallet,
// 2 and 3: the baselines above; 4 to 9 are free).
export function anvilDevKey(index: number): string {
  return HDNodeWallet.fromPhrase(ANVIL_MNEMONIC, undefined, `m/44'/60'/0'/0/${index}`).privateKey;
}

// Mints test USDC to each key's address (the token's owner mints); the accounts already hold ETH.
export async function fundWithUsdc(
  env: Record<string, string>,
  keys: string[],
  usdcEach: bigint,
): Promise<void> {
  const provider = localProvider(env.RPC_URL);
  try {
    const owner = new Wallet(env.USDC_OWNER_KEY, provider);
    const usdc = new Contract(env.USDC_ADDRESS, TEST_USDC_ABI, owner);
    let nonce = await owner.getNonce('pending');
    const sent = [];
    for (const key of keys) {
      sent.push(await usdc.getFunction('mint')(new Wallet(key).address, usdcEach, { nonce: nonce++ }));
    }
    await Promise.all(sent.map((tx: { wait(): Promise<unknown> }) => tx.wait()));
  } finally {
    provider.destroy();
  }
}

export class RawSigner {
  private readonly wallet: Wallet;
  private nonce?: number;

  constructor(
    private readonly provider: JsonRpcProvider,
    key: string,
    private readonly usdcAddress: string,
    private readonly chainId: bigint,
  ) {
    this.wallet = new Wallet(key);
  }

  get address(): string {
    return this.wallet.address;
  }

  // Signs `count` USDC transfers locally with consecutive nonces.
  async sign(count: number, to: string, amount: bigint): Promise<string[]> {
    this.nonce ??= await this.provider.getTransactionCount(this.wallet.address, 'pending');
    const fee = await this.provider.getFeeData();
    const maxFeePerGas = (fee.maxFeePerGas ?? 2_000_000_000n) * 2n;
    const data = erc20.encodeFunctionData('transfer', [to, amount]);
    const signed: string[] = [];
    for (let i = 0; i < count; i++) {
      signed.push(
        await this.wallet.signTransaction({
          type: 2,
          chainId: this.chainId,
          to: this.usdcAddress,
          data,
          nonce: this.nonce++,
          gasLimit: GAS_LIMIT,
          maxFeePerGas,
          maxPriorityFeePerGas: fee.maxPriorityFeePerGas ?? 1_000_000n,
        }),
      );
    }
    return signed;
  }

  // Sends every raw transaction at once (pipelined on the connection) and waits until all are mined.
  async sendAll(raw: string[]): Promise<void> {
    await Promise.all(raw.map((tx) => this.provider.send('eth_sendRawTransaction', [tx])));
    while ((await this.provider.getTransactionCount(this.wallet.address, 'latest')) < (this.nonce ?? 0)) {
      await sleep(5);
    }
  }
}

export async function rawSigner(
  env: Record<string, string>,
  key: string,
): Promise<{ signer: RawSigner; close(): void }> {
  const provider = localProvider(env.RPC_URL);
  const chainId = BigInt(env.CHAIN_ID);
  return { signer: new RawSigner(provider, key, env.USDC_ADDRESS, chainId), close: () => provider.destroy() };
}
