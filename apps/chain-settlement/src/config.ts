import { parseUnits } from 'ethers';

import {
  commonEnv,
  ConfigError,
  decimalString,
  defaultPorts,
  int,
  isPublicDevKey,
  loadEnv,
  sandboxChainProblem,
  str,
} from '@onramp/config';
import { loadServiceRuntime } from '@onramp/service-runtime';

export const SETTLEMENT_SCHEMA = 'settlement';

const LOCAL_RPC_URL = 'http://127.0.0.1:8545';
const LOCAL_CHAIN_ID = 31337;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/;

// Parsers that never echo the value: the signer key must not end up in a log line.
function secretKey(): (raw: string | undefined, name: string) => string {
  return (raw, name) => {
    if (raw === undefined || raw === '') throw new ConfigError(`${name} is required`);
    if (!PRIVATE_KEY_RE.test(raw.trim()))
      throw new ConfigError(`${name} must be a 0x-prefixed 32-byte hex private key`);
    return raw.trim();
  };
}

function address(): (raw: string | undefined, name: string) => string {
  return (raw, name) => {
    if (raw === undefined || raw === '') throw new ConfigError(`${name} is required`);
    if (!ADDRESS_RE.test(raw.trim()))
      throw new ConfigError(`${name} must be a 0x-prefixed 20-byte hex address, got "${raw}"`);
    return raw.trim();
  };
}

const settlementEnv = {
  ONRAMP_MODE: commonEnv.ONRAMP_MODE,
  DATABASE_URL: commonEnv.DATABASE_URL,
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  HOST: commonEnv.HOST,
  CHAIN_SETTLEMENT_PORT: int({ default: defaultPorts.chainSettlement, min: 0, max: 65535 }),
  // Defaults are the local anvil; production mode requires both to be set explicitly.
  RPC_URL: str({ optional: true }),
  CHAIN_ID: int({ default: 0, min: 0 }),
  SANDBOX_TESTNET: str({ optional: true }), // <name>:<chain id>, for a testnet not on the known list
  USDC_ADDRESS: address(),
  SETTLEMENT_SIGNER_KEY: secretKey(),
  CHAIN_CONFIRMATIONS: int({ default: 1, min: 1 }),
  FX_RATE_EUR_USDC: decimalString({ default: '1.08' }),
  FX_FEE: decimalString({ default: '0.01' }),
  FX_RATE_MAX_AGE_SECONDS: int({ default: 300, min: 1 }),
  SETTLEMENT_GAS_LIMIT: int({ default: 120_000, min: 21_000 }),
  SETTLEMENT_POLL_MS: int({ default: 500, min: 10 }),
  SETTLEMENT_RECEIPT_POLL_MS: int({ default: 100, min: 10 }),
  SETTLEMENT_STUCK_AFTER_SECONDS: int({ default: 60, min: 1 }),
  SETTLEMENT_MAX_FEE_GWEI: decimalString({ default: '500' }),
  RPC_TIMEOUT_MS: int({ default: 10_000, min: 100 }),
};

export interface ChainSettlementConfig {
  mode: 'sandbox' | 'production';
  databaseUrl: string;
  logLevel: string;
  host: string;
  port: number;
  rpcUrl: string;
  chainId: number;
  usdcAddress: string;
  signerKey: string; // hot wallet private key: never log it
  confirmations: number;
  fxRateEurUsdc: string;
  fxFee: string;
  fxRateMaxAgeSeconds: number;
  gasLimit: bigint;
  pollMs: number; // the safety net: a new payment.confirmed wakes the worker at once
  receiptPollMs: number; // how soon the worker looks again while transactions wait for receipts
  stuckAfterMs: number; // a broadcast transaction without receipt this long is replaced with higher fees
  maxFeeWei: bigint; // no transaction of ours ever offers more per gas
  rpcTimeoutMs: number; // every JSON-RPC call gives up after this long
}

export const CHAIN_SETTLEMENT_CONFIG = Symbol('CHAIN_SETTLEMENT_CONFIG');

export function loadChainSettlementConfig(source: NodeJS.ProcessEnv = process.env): ChainSettlementConfig {
  const env = loadEnv(settlementEnv, source);
  const production = env.ONRAMP_MODE === 'production';
  const problems: string[] = [];
  if (production && !env.RPC_URL) problems.push('RPC_URL is required in production mode');
  if (production && env.CHAIN_ID === 0) problems.push('CHAIN_ID is required in production mode');
  const chainId = env.CHAIN_ID === 0 ? LOCAL_CHAIN_ID : env.CHAIN_ID;
  const chainProblem = sandboxChainProblem(env.ONRAMP_MODE, chainId, env.SANDBOX_TESTNET || undefined);
  if (chainProblem) problems.push(chainProblem);
  if (production && isPublicDevKey(env.SETTLEMENT_SIGNER_KEY)) {
    problems.push(
      'SETTLEMENT_SIGNER_KEY is a public anvil/hardhat development key (anyone can take its funds); ' +
        'production mode needs the hot wallet key',
    );
  }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  if (Number(env.FX_FEE) >= 1) throw new ConfigError('invalid configuration: FX_FEE must be below 1');
  if (/^0*(\.0*)?$/.test(env.FX_RATE_EUR_USDC))
    throw new ConfigError('invalid configuration: FX_RATE_EUR_USDC must be above 0');
  const maxFeeWei = gweiToWei(env.SETTLEMENT_MAX_FEE_GWEI);
  return {
    mode: env.ONRAMP_MODE,
    databaseUrl: env.DATABASE_URL,
    logLevel: env.LOG_LEVEL,
    host: env.HOST,
    port: env.CHAIN_SETTLEMENT_PORT,
    rpcUrl: env.RPC_URL || LOCAL_RPC_URL,
    chainId,
    usdcAddress: env.USDC_ADDRESS,
    signerKey: env.SETTLEMENT_SIGNER_KEY,
    confirmations: env.CHAIN_CONFIRMATIONS,
    fxRateEurUsdc: env.FX_RATE_EUR_USDC,
    fxFee: env.FX_FEE,
    fxRateMaxAgeSeconds: env.FX_RATE_MAX_AGE_SECONDS,
    gasLimit: BigInt(env.SETTLEMENT_GAS_LIMIT),
    pollMs: env.SETTLEMENT_POLL_MS,
    receiptPollMs: env.SETTLEMENT_RECEIPT_POLL_MS,
    stuckAfterMs: env.SETTLEMENT_STUCK_AFTER_SECONDS * 1000,
    maxFeeWei,
    rpcTimeoutMs: env.RPC_TIMEOUT_MS,
  };
}

function gweiToWei(gwei: string): bigint {
  let wei: bigint;
  try {
    wei = parseUnits(gwei, 'gwei');
  } catch {
    throw new ConfigError(
      `invalid configuration: SETTLEMENT_MAX_FEE_GWEI has more than 9 decimals: "${gwei}"`,
    );
  }
  if (wei <= 0n) throw new ConfigError('invalid configuration: SETTLEMENT_MAX_FEE_GWEI must be above 0');
  return wei;
}

// What this app gives the shared libs, which never read the environment themselves.
export function loadChainSettlementRuntime(source: NodeJS.ProcessEnv = process.env) {
  return loadServiceRuntime(source, ['logging', 'tracing', 'metrics', 'transport', 'database']);
}

export type ChainSettlementRuntime = ReturnType<typeof loadChainSettlementRuntime>;
