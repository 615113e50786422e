import { Contract, HDNodeWallet, Interface, JsonRpcProvider, Wallet } from 'ethers';

import {
  ANVIL_ACCOUNT_2_KEY,
  ANVIL_ACCOUNT_3_KEY,
  ERC20_ABI,
  localProvider,
  Secp256k1Key,
  signEip1559,
  TEST_USDC_ABI,
} from '@onramp/chain';

import { isPoolStalled } from '@onramp/settlement-domain';

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

// How long the mined nonce may stand still, with transactions outstanding, before the pool is asked
// whether it holds one outside its ready queue. A local chain mines within the second.
const STALL_CHECK_AFTER_MS = 1_000;

interface TransferParams {
  to: string;
  data: string;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SendOutcome {
  // Transactions anvil's pool held outside its ready queue (see pool-stall.ts in the settlement
  // domain), each replaced by a new one for its nonce: the run waited about a second on anvil, not on
  // signing or sending, so a caller timing the send should run it again.
  replaced: number;
}

export class RawSigner {
  private readonly wallet: Wallet;
  private readonly key: Secp256k1Key;
  private nonce?: number;
  private params?: TransferParams;

  constructor(
    private readonly provider: JsonRpcProvider,
    key: string,
    private readonly usdcAddress: string,
    private readonly chainId: bigint,
  ) {
    this.wallet = new Wallet(key);
    this.key = new Secp256k1Key(this.wallet.privateKey);
  }

  get address(): string {
    return this.wallet.address;
  }

  // Signs `count` USDC transfers locally with consecutive nonces.
  async sign(count: number, to: string, amount: bigint): Promise<string[]> {
    this.nonce ??= await this.provider.getTransactionCount(this.wallet.address, 'pending');
    const fee = await this.provider.getFeeData();
    this.params = {
      to: this.usdcAddress,
      data: erc20.encodeFunctionData('transfer', [to, amount]),
      maxFeePerGas: (fee.maxFeePerGas ?? 2_000_000_000n) * 2n,
      maxPriorityFeePerGas: fee.maxPriorityFeePerGas ?? 1_000_000n,
    };
    const signed: string[] = [];
    for (let i = 0; i < count; i++) signed.push(this.signTransfer(this.nonce++, this.params));
    return signed;
  }

  // Sends every raw transaction at once (pipelined on the connection) and waits until all are mined.
  // A transaction anvil's pool holds back (its race: the signer's later nonces queue behind it for
  // good) is replaced by the same transfer at a higher fee, which the pool does take.
  async sendAll(raw: string[]): Promise<SendOutcome> {
    await Promise.all(raw.map((tx) => this.provider.send('eth_sendRawTransaction', [tx])));
    const target = this.nonce ?? 0;
    let replaced = 0;
    let mined = -1;
    let movedAt = Date.now();
    for (;;) {
      const now = await this.provider.getTransactionCount(this.wallet.address, 'latest');
      if (now >= target) return { replaced };
      if (now !== mined) {
        mined = now;
        movedAt = Date.now();
      } else if (Date.now() - movedAt >= STALL_CHECK_AFTER_MS) {
        const pending = await this.provider.getTransactionCount(this.wallet.address, 'pending');
        if (isPoolStalled(BigInt(now), BigInt(pending), false)) {
          await this.replace(now, ++replaced);
        }
        movedAt = Date.now();
      }
      await sleep(5);
    }
  }

  private async replace(nonce: number, bump: number): Promise<void> {
    const params = this.params as TransferParams;
    // a replacement must raise both fees by at least 10 %; a quarter per replacement clears it
    const raise = (fee: bigint) => (fee * 125n ** BigInt(bump)) / 100n ** BigInt(bump);
    const tx = this.signTransfer(nonce, {
      ...params,
      maxFeePerGas: raise(params.maxFeePerGas),
      maxPriorityFeePerGas: raise(params.maxPriorityFeePerGas),
    });
    await this.provider.send('eth_sendRawTransaction', [tx]);
  }

  // Signed the way the platform's LocalKeySigner signs a type 2 transfer (libsecp256k1, the bytes
  // written by hand), so the ratio compares the platform with the same signing, not with a slower one.
  private signTransfer(nonce: number, params: TransferParams): string {
    return signEip1559(this.key, {
      chainId: this.chainId,
      nonce: BigInt(nonce),
      gasLimit: GAS_LIMIT,
      value: 0n,
      ...params,
    }).rawTx;
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
