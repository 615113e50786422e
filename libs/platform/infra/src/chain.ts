import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  ANVIL_DEPLOYER_KEY,
  ANVIL_HOT_WALLET_KEY,
  bootstrapLocalChain,
  localProvider,
  setEthBalance,
  startAnvil,
  TEST_USDC_ABI,
} from '@onramp/chain';
import { isPublicDevKey } from '@onramp/config';
import { Contract, Wallet } from 'ethers';

import type { InfraConfig } from './config';
import { guardAgainstOrphan } from './orphan-guard';

export interface StartChainOptions {
  // Persistent anvil state (and the token address that lives in it); default: a fresh chain.
  dataDir?: string;
  chainId?: number;
  port?: number; // default: a free port
  blockTimeSeconds?: number;
  usdcForHotWallet?: bigint; // base units; default 1,000,000 USDC
  hotWalletKey?: string; // default: SETTLEMENT_SIGNER_KEY, else an anvil development account
}

export interface ChainHandle {
  rpcUrl: string;
  chainId: number;
  usdcAddress: string;
  hotWalletKey: string; // the settlement signer
  deployerKey: string; // owner of the test token: mints and blacklists
  source: 'env' | 'anvil';
  stop(): Promise<void>;
}

const DEFAULT_HOT_WALLET_USDC = 1_000_000n * 10n ** 6n;

type ChainInfraConfig = Pick<InfraConfig, 'chain' | 'usdcAddress' | 'settlementSignerKey' | 'usdcOwnerKey'>;

// RPC_URL (config.chain.rpcUrl) names an existing node, funded here unless USDC_ADDRESS names the
// token; else a local anvil with the test USDC.
export async function startChain(
  config: ChainInfraConfig,
  opts: StartChainOptions = {},
): Promise<ChainHandle> {
  const hotWalletKey = opts.hotWalletKey || config.settlementSignerKey || ANVIL_HOT_WALLET_KEY;
  const deployerKey = config.usdcOwnerKey || ANVIL_DEPLOYER_KEY;
  const usdc = opts.usdcForHotWallet ?? DEFAULT_HOT_WALLET_USDC;
  const cacheDir = config.chain.cacheDir;

  const envRpcUrl = config.chain.rpcUrl;
  if (envRpcUrl) {
    // a stale RPC_URL (say, exported by an earlier tools/run/infra.ts) is the usual cause here
    const fromEnv = async (): Promise<{ chainId: number; usdcAddress: string }> => ({
      chainId: await queryChainId(envRpcUrl),
      usdcAddress:
        config.usdcAddress ||
        (await fundHotWallet(envRpcUrl, deployerKey, hotWalletKey, usdc, cacheDir)).usdcAddress,
    });
    const { chainId, usdcAddress } = await fromEnv().catch((err: unknown) => {
      throw new Error(
        `RPC_URL=${envRpcUrl} (from the environment): ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    return {
      rpcUrl: envRpcUrl,
      chainId,
      usdcAddress,
      hotWalletKey,
      deployerKey,
      source: 'env',
      stop: async () => undefined,
    };
  }

  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const anvil = await startAnvil({
    binary: config.chain.anvilBin,
    port: opts.port,
    chainId: opts.chainId,
    blockTimeSeconds: opts.blockTimeSeconds,
    stateFile: opts.dataDir ? join(opts.dataDir, 'anvil-state.json') : undefined,
    // the orphan watchdog's SIGTERM makes anvil dump on our SIGKILL; this covers a SIGKILL of anvil itself
    stateIntervalSeconds: 2,
  });
  const release = guardAgainstOrphan(anvil.pid, { signal: 'SIGTERM' });
  const stop = async (): Promise<void> => {
    await anvil.stop();
    release();
  };
  try {
    const tokenFile = opts.dataDir ? join(opts.dataDir, 'usdc.json') : undefined;
    let usdcAddress = tokenFile ? await previousToken(anvil.rpcUrl, tokenFile) : undefined;
    if (!usdcAddress) {
      usdcAddress = (await fundHotWallet(anvil.rpcUrl, deployerKey, hotWalletKey, usdc, cacheDir))
        .usdcAddress;
      if (tokenFile) writeFileSync(tokenFile, JSON.stringify({ usdcAddress }));
    } else {
      await topUpHotWallet(anvil.rpcUrl, deployerKey, hotWalletKey, usdcAddress, usdc);
    }
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      usdcAddress,
      hotWalletKey,
      deployerKey,
      source: 'anvil',
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

// A hot wallet of our own (not one of anvil's prefunded accounts) also needs gas money.
const HOT_WALLET_ETH = 100n * 10n ** 18n;

async function fundHotWallet(
  rpcUrl: string,
  deployerKey: string,
  hotWalletKey: string,
  usdc: bigint,
  artifactCacheDir: string | undefined,
): Promise<{ usdcAddress: string }> {
  const address = new Wallet(hotWalletKey).address;
  const funded = await bootstrapLocalChain({
    rpcUrl,
    deployerKey,
    fundAddresses: [address],
    usdcPerAddress: usdc,
    artifactCacheDir,
  });
  if (!isPublicDevKey(hotWalletKey)) await setEthBalance(rpcUrl, address, HOT_WALLET_ETH);
  return funded;
}

// A kept chain state meets another hot wallet when the mode changes (production mode brings its own
// signer): a wallet without gas is funded as a fresh chain would have funded it.
async function topUpHotWallet(
  rpcUrl: string,
  deployerKey: string,
  hotWalletKey: string,
  usdcAddress: string,
  usdc: bigint,
): Promise<void> {
  const address = new Wallet(hotWalletKey).address;
  const provider = localProvider(rpcUrl);
  try {
    if ((await provider.getBalance(address)) > 0n) return;
    await setEthBalance(rpcUrl, address, HOT_WALLET_ETH);
    const token = new Contract(usdcAddress, TEST_USDC_ABI, new Wallet(deployerKey, provider));
    const tx = (await token.getFunction('mint')(address, usdc)) as { wait(): Promise<unknown> };
    await tx.wait();
  } finally {
    provider.destroy();
  }
}

// A restarted dev chain (anvil --state) still has the token deployed last time.
async function previousToken(rpcUrl: string, tokenFile: string): Promise<string | undefined> {
  if (!existsSync(tokenFile)) return undefined;
  const { usdcAddress } = JSON.parse(readFileSync(tokenFile, 'utf8')) as { usdcAddress: string };
  const provider = localProvider(rpcUrl);
  try {
    return (await provider.getCode(usdcAddress)) !== '0x' ? usdcAddress : undefined;
  } finally {
    provider.destroy();
  }
}

async function queryChainId(rpcUrl: string): Promise<number> {
  const provider = localProvider(rpcUrl);
  try {
    return Number((await provider.getNetwork()).chainId);
  } finally {
    provider.destroy();
  }
}
