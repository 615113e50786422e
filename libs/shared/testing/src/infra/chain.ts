import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import {
  ANVIL_DEPLOYER_KEY,
  ANVIL_HOT_WALLET_KEY,
  bootstrapLocalChain,
  localProvider,
  startAnvil,
} from '@onramp/chain';
import { Wallet } from 'ethers';

import { guardAgainstOrphan } from './orphan-guard';

export interface StartChainOptions {
  // Persistent anvil state (and the token address that lives in it); default: a fresh chain.
  dataDir?: string;
  chainId?: number;
  port?: number; // default: a free port
  blockTimeSeconds?: number;
  usdcForHotWallet?: bigint; // base units; default 1,000,000 USDC
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

export async function startChain(opts: StartChainOptions = {}): Promise<ChainHandle> {
  const hotWalletKey = process.env['SETTLEMENT_SIGNER_KEY'] || ANVIL_HOT_WALLET_KEY;
  const deployerKey = process.env['USDC_OWNER_KEY'] || ANVIL_DEPLOYER_KEY;
  const usdc = opts.usdcForHotWallet ?? DEFAULT_HOT_WALLET_USDC;

  const envRpcUrl = process.env['RPC_URL'];
  if (envRpcUrl) {
    // a stale RPC_URL (say, exported by an earlier tools/run/infra.ts) is the usual cause here
    const fromEnv = async (): Promise<{ chainId: number; usdcAddress: string }> => ({
      chainId: await queryChainId(envRpcUrl),
      usdcAddress:
        process.env['USDC_ADDRESS'] ||
        (await fundHotWallet(envRpcUrl, deployerKey, hotWalletKey, usdc)).usdcAddress,
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
      usdcAddress = (await fundHotWallet(anvil.rpcUrl, deployerKey, hotWalletKey, usdc)).usdcAddress;
      if (tokenFile) writeFileSync(tokenFile, JSON.stringify({ usdcAddress }));
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

function fundHotWallet(
  rpcUrl: string,
  deployerKey: string,
  hotWalletKey: string,
  usdc: bigint,
): Promise<{ usdcAddress: string }> {
  return bootstrapLocalChain({
    rpcUrl,
    deployerKey,
    fundAddresses: [new Wallet(hotWalletKey).address],
    usdcPerAddress: usdc,
  });
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
