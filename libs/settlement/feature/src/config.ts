import { parseUnits } from 'ethers';

import {
  bool,
  ConfigError,
  decimalString,
  defaultPorts,
  int,
  isPublicDevKey,
  loadEnv,
  oneOf,
  sandboxChainProblem,
  serviceBasics,
  serviceEnv,
  str,
} from '@onramp/config';
import { DecimalError, usdcToBaseUnits } from '@onramp/money';
import { loadServiceRuntime, ServiceRuntime } from '@onramp/service-runtime';

import { armedCrashPoints } from './worker/crash-point';

export const SETTLEMENT_SCHEMA = 'settlement';

const LOCAL_RPC_URL = 'http://127.0.0.1:8545';
const LOCAL_CHAIN_ID = 31337;

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const PRIVATE_KEY_RE = /^0x[0-9a-fA-F]{64}$/;

// Parsers that never echo the value: the signer key must not end up in a log line. Optional: a
// remote signer (SETTLEMENT_SIGNER_URL) holds the key instead.
function secretKey(): (raw: string | undefined, name: string) => string {
  return (raw, name) => {
    if (raw === undefined || raw === '') return '';
    if (!PRIVATE_KEY_RE.test(raw.trim()))
      throw new ConfigError(`${name} must be a 0x-prefixed 32-byte hex private key`);
    return raw.trim();
  };
}

// A comma-separated pool of keys (SETTLEMENT_SIGNER_KEYS), checked as secretKey checks one.
function secretKeys(): (raw: string | undefined, name: string) => string[] {
  return (raw, name) => {
    const items = (raw ?? '').split(/[\s,]+/).filter((k) => k !== '');
    items.forEach((k, i) => {
      if (!PRIVATE_KEY_RE.test(k))
        throw new ConfigError(`${name} entry ${i + 1} must be a 0x-prefixed 32-byte hex private key`);
    });
    if (new Set(items.map((k) => k.toLowerCase())).size !== items.length)
      throw new ConfigError(`${name} lists a key twice`);
    return items;
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
  ...serviceEnv,
  CHAIN_SETTLEMENT_PORT: int({ default: defaultPorts.chainSettlement, min: 0, max: 65535 }),
  // Defaults are the local anvil; production mode requires both to be set explicitly.
  RPC_URL: str({ optional: true }),
  CHAIN_ID: int({ default: 0, min: 0 }),
  SANDBOX_TESTNET: str({ optional: true }), // <name>:<chain id>, for a testnet not on the known list
  USDC_ADDRESS: address(),
  SETTLEMENT_SIGNER_KEY: secretKey(),
  // A pool of hot wallet keys: the process leases one of them at a time (settlement.signer_leases).
  SETTLEMENT_SIGNER_KEYS: secretKeys(),
  // How often a signer lease is renewed; it expires after three missed heartbeats.
  SETTLEMENT_LEASE_HEARTBEAT_MS: int({ default: 2_000, min: 50 }),
  // A remote signer speaking eth_signTransaction (Web3Signer, Clef) instead of a key in this process.
  SETTLEMENT_SIGNER_URL: str({ optional: true }),
  SETTLEMENT_SIGNER_ADDRESS: str({ optional: true }),
  SETTLEMENT_SIGNER_AUTHORIZATION: str({ optional: true }), // the Authorization header's value: a secret
  // Payout caps per signer, in USDC; empty: no cap.
  SETTLEMENT_MAX_PER_TRANSFER_USDC: str({ optional: true }),
  SETTLEMENT_MAX_PER_DAY_USDC: str({ optional: true }),
  // Recipients refused before signing: the token's own blacklist, and our list.
  USDC_BLACKLIST_CHECK: bool({ default: true }),
  SETTLEMENT_SANCTIONED_ADDRESSES: str({ optional: true }),
  // When a mined transfer counts as final: N confirmations, or the node's safe/finalized block.
  SETTLEMENT_FINALITY: oneOf(['confirmations', 'safe', 'finalized'] as const, { default: 'confirmations' }),
  CHAIN_CONFIRMATIONS: int({ default: 1, min: 1 }),
  FX_RATE_EUR_USDC: decimalString({ default: '1.08' }),
  FX_FEE: decimalString({ default: '0.01' }),
  FX_RATE_MAX_AGE_SECONDS: int({ default: 300, min: 1 }),
  SETTLEMENT_GAS_LIMIT: int({ default: 0, min: 0 }), // 0: estimated per transfer
  SETTLEMENT_GAS_BUFFER_PERCENT: int({ default: 25, min: 0, max: 400 }),
  SETTLEMENT_GAS_CEILING: int({ default: 500_000, min: 21_000 }),
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
  // The pool of hot wallets this process may sign with, one at a time under a lease (a single key or
  // remote signer is a pool of one).
  signers: SignerConfig[];
  leaseHeartbeatMs: number; // a lease expires after 3 heartbeats without renewal
  confirmations: number;
  fxRateEurUsdc: string;
  fxFee: string;
  fxRateMaxAgeSeconds: number;
  gasLimit: bigint | undefined; // fixed for every transfer; undefined: estimated per transfer
  gasBufferPercent: number; // added to an estimate, and to what a node asks after "intrinsic gas too low"
  gasCeiling: bigint; // no transfer of ours is signed with a higher gas limit
  payoutCaps: PayoutCaps;
  usdcBlacklistCheck: boolean;
  sanctionedAddresses: ReadonlySet<string>; // lower case
  finality: 'confirmations' | 'safe' | 'finalized';
  pollMs: number; // the safety net: a new payment.confirmed wakes the worker at once
  receiptPollMs: number; // how soon the worker looks again while transactions wait for receipts
  stuckAfterMs: number; // a broadcast transaction without receipt this long is replaced with higher fees
  // The local development chain (chain id 31337: anvil, hardhat), whose transaction pool has a race of
  // its own (@onramp/settlement-domain, pool-stall.ts): a transaction it holds outside its ready queue
  // is replaced within seconds instead of after stuckAfterMs, and the in-flight pass sends a batch's
  // higher nonces before its lowest (DriveInFlightBatchStep).
  localDevChain: boolean;
  maxFeeWei: bigint; // no transaction of ours ever offers more per gas
  rpcTimeoutMs: number; // every JSON-RPC call gives up after this long
  crashPoints: ReadonlySet<string>; // SETTLEMENT_CRASH_POINT, for the chaos suite; empty in production
  runtime: ChainSettlementRuntime; // what the shared libs are given
}

export type SignerConfig =
  | { kind: 'local'; key: string } // hot wallet private key: never log it
  | { kind: 'remote'; url: string; address: string; authorization?: string }; // authorization: never log it

export interface PayoutCaps {
  perTransfer?: bigint; // USDC base units
  perDay?: bigint; // rolling 24 h, per signer
}

export const CHAIN_SETTLEMENT_CONFIG = Symbol('CHAIN_SETTLEMENT_CONFIG');

// The one parser of this service's environment: main.ts calls it with process.env, the embedded runner
// and the tests with an environment of their own; everything past it takes the result.
export function loadChainSettlementConfig(source: NodeJS.ProcessEnv): ChainSettlementConfig {
  const env = loadEnv(settlementEnv, source);
  const production = env.ONRAMP_MODE === 'production';
  const problems: string[] = [];
  if (production && !env.RPC_URL) problems.push('RPC_URL is required in production mode');
  if (production && env.CHAIN_ID === 0) problems.push('CHAIN_ID is required in production mode');
  const chainId = env.CHAIN_ID === 0 ? LOCAL_CHAIN_ID : env.CHAIN_ID;
  const chainProblem = sandboxChainProblem(env.ONRAMP_MODE, chainId, env.SANDBOX_TESTNET || undefined);
  if (chainProblem) problems.push(chainProblem);
  const signers = signersOf(env, problems);
  const publicKey = signers?.findIndex((s) => s.kind === 'local' && isPublicDevKey(s.key)) ?? -1;
  if (production && publicKey >= 0) {
    problems.push(
      `${env.SETTLEMENT_SIGNER_KEYS.length > 0 ? `SETTLEMENT_SIGNER_KEYS entry ${publicKey + 1}` : 'SETTLEMENT_SIGNER_KEY'} ` +
        'is a public anvil/hardhat development key (anyone can take its funds); production mode needs the hot wallet key',
    );
  }
  const payoutCaps = {
    perTransfer: usdcCap(env.SETTLEMENT_MAX_PER_TRANSFER_USDC, 'SETTLEMENT_MAX_PER_TRANSFER_USDC', problems),
    perDay: usdcCap(env.SETTLEMENT_MAX_PER_DAY_USDC, 'SETTLEMENT_MAX_PER_DAY_USDC', problems),
  };
  const sanctionedAddresses = addressList(
    env.SETTLEMENT_SANCTIONED_ADDRESSES,
    'SETTLEMENT_SANCTIONED_ADDRESSES',
    problems,
  );
  if (env.SETTLEMENT_GAS_LIMIT !== 0 && env.SETTLEMENT_GAS_LIMIT < 21_000)
    problems.push('SETTLEMENT_GAS_LIMIT must be 0 (estimate) or at least 21000');
  if (env.SETTLEMENT_GAS_LIMIT > env.SETTLEMENT_GAS_CEILING)
    problems.push('SETTLEMENT_GAS_LIMIT must not be above SETTLEMENT_GAS_CEILING');
  if (problems.length > 0 || !signers) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  if (Number(env.FX_FEE) >= 1) throw new ConfigError('invalid configuration: FX_FEE must be below 1');
  if (/^0*(\.0*)?$/.test(env.FX_RATE_EUR_USDC))
    throw new ConfigError('invalid configuration: FX_RATE_EUR_USDC must be above 0');
  const maxFeeWei = gweiToWei(env.SETTLEMENT_MAX_FEE_GWEI);
  return {
    ...serviceBasics(env),
    port: env.CHAIN_SETTLEMENT_PORT,
    rpcUrl: env.RPC_URL || LOCAL_RPC_URL,
    chainId,
    usdcAddress: env.USDC_ADDRESS,
    signers,
    leaseHeartbeatMs: env.SETTLEMENT_LEASE_HEARTBEAT_MS,
    confirmations: env.CHAIN_CONFIRMATIONS,
    fxRateEurUsdc: env.FX_RATE_EUR_USDC,
    fxFee: env.FX_FEE,
    fxRateMaxAgeSeconds: env.FX_RATE_MAX_AGE_SECONDS,
    gasLimit: env.SETTLEMENT_GAS_LIMIT === 0 ? undefined : BigInt(env.SETTLEMENT_GAS_LIMIT),
    gasBufferPercent: env.SETTLEMENT_GAS_BUFFER_PERCENT,
    gasCeiling: BigInt(env.SETTLEMENT_GAS_CEILING),
    payoutCaps,
    usdcBlacklistCheck: env.USDC_BLACKLIST_CHECK,
    sanctionedAddresses,
    finality: env.SETTLEMENT_FINALITY,
    pollMs: env.SETTLEMENT_POLL_MS,
    receiptPollMs: env.SETTLEMENT_RECEIPT_POLL_MS,
    stuckAfterMs: env.SETTLEMENT_STUCK_AFTER_SECONDS * 1000,
    localDevChain: chainId === LOCAL_CHAIN_ID,
    maxFeeWei,
    rpcTimeoutMs: env.RPC_TIMEOUT_MS,
    // The chaos suite's fault injection (worker/crash-point.ts), no deployment setting: read here, not
    // declared above, so the Helm chart never offers it; ignored in production mode.
    crashPoints: armedCrashPoints(source['SETTLEMENT_CRASH_POINT'] ?? '', env.ONRAMP_MODE),
    runtime: loadChainSettlementRuntime(source),
  };
}

type SettlementEnv = ReturnType<typeof loadEnv<typeof settlementEnv>>;

// A pool of local keys, the one local key (a pool of one), or a remote signer (URL + the address it
// signs for, also a pool of one); exactly one of them.
function signersOf(env: SettlementEnv, problems: string[]): SignerConfig[] | undefined {
  const url = env.SETTLEMENT_SIGNER_URL.trim();
  const pool = env.SETTLEMENT_SIGNER_KEYS;
  if (pool.length > 0 && (env.SETTLEMENT_SIGNER_KEY || url)) {
    problems.push('set one of SETTLEMENT_SIGNER_KEYS, SETTLEMENT_SIGNER_KEY or SETTLEMENT_SIGNER_URL');
    return undefined;
  }
  if (pool.length > 0) return pool.map((key) => ({ kind: 'local', key }));
  if (!url) {
    if (!env.SETTLEMENT_SIGNER_KEY)
      problems.push(
        'SETTLEMENT_SIGNER_KEY is required (or SETTLEMENT_SIGNER_KEYS, or SETTLEMENT_SIGNER_URL)',
      );
    return env.SETTLEMENT_SIGNER_KEY ? [{ kind: 'local', key: env.SETTLEMENT_SIGNER_KEY }] : undefined;
  }
  const before = problems.length;
  if (env.SETTLEMENT_SIGNER_KEY)
    problems.push('set SETTLEMENT_SIGNER_KEY or SETTLEMENT_SIGNER_URL, not both');
  if (!/^https?:\/\/[^\s]+$/.test(url)) problems.push('SETTLEMENT_SIGNER_URL must be an http(s) URL');
  // The signer is asked to sign payouts (and maybe given a bearer token): in production only over
  // TLS, or to a signer on the same host (a sidecar).
  else if (env.ONRAMP_MODE === 'production' && !isTlsOrLoopback(url))
    problems.push('SETTLEMENT_SIGNER_URL must be https in production mode (or a signer on localhost)');
  const address = env.SETTLEMENT_SIGNER_ADDRESS.trim();
  if (!ADDRESS_RE.test(address))
    problems.push('SETTLEMENT_SIGNER_ADDRESS must be the 0x-prefixed address the remote signer signs for');
  if (problems.length > before) return undefined;
  const authorization = env.SETTLEMENT_SIGNER_AUTHORIZATION.trim();
  return [{ kind: 'remote', url, address, ...(authorization ? { authorization } : {}) }];
}

function isTlsOrLoopback(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
}

function usdcCap(raw: string, name: string, problems: string[]): bigint | undefined {
  if (raw.trim() === '') return undefined;
  try {
    const units = usdcToBaseUnits(raw.trim());
    if (units > 0n) return units;
  } catch (err) {
    if (!(err instanceof DecimalError)) throw err;
  }
  problems.push(`${name} must be a USDC amount above 0 with at most 6 decimals, got "${raw}"`);
  return undefined;
}

function addressList(raw: string, name: string, problems: string[]): ReadonlySet<string> {
  const items = raw.split(/[\s,]+/).filter((a) => a !== '');
  const bad = items.filter((a) => !ADDRESS_RE.test(a));
  if (bad.length > 0)
    problems.push(`${name} holds entries that are not addresses: ${bad.slice(0, 3).join(', ')}`);
  return new Set(items.map((a) => a.toLowerCase()));
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

export type ChainSettlementRuntime = Pick<
  ServiceRuntime,
  'logging' | 'tracing' | 'metrics' | 'callers' | 'transport' | 'database'
>;

// What this service gives the shared libs, which never read the environment themselves: no merchant
// auth (no merchant-facing HTTP); service callers (SERVICE_CALLERS) for the gateway's /admin/settlements.
export function loadChainSettlementRuntime(source: NodeJS.ProcessEnv): ChainSettlementRuntime {
  return loadServiceRuntime(source, ['logging', 'tracing', 'metrics', 'callers', 'transport', 'database']);
}
