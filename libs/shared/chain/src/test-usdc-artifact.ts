import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import type { JsonFragment } from 'ethers';

import { loadLocalChainConfig } from './config';

export interface ContractArtifact {
  abi: JsonFragment[];
  bytecode: string;
}

interface SolcError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage?: string;
  message: string;
}

interface SolcOutput {
  errors?: SolcError[];
  contracts?: Record<
    string,
    Record<string, { abi: ContractArtifact['abi']; evm: { bytecode: { object: string } } }>
  >;
}

const SOURCE_NAME = 'test-usdc.sol';
const CONTRACT_NAME = 'TestUsdc';
export const TEST_USDC_SOURCE_PATH = join(__dirname, 'contracts', SOURCE_NAME);

// cancun: supported by anvil and by the L2s we target, so the same bytecode deploys anywhere.
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { [SOURCE_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object'] } },
};

// Compiling with solc-js takes seconds (it loads an 8 MB wasm build), so the artifact is cached
// on disk keyed by everything that changes the output, under `cacheDir` (default ONRAMP_CACHE, else
// node_modules/.cache/onramp).
export function compileTestUsdc(cacheDir = loadLocalChainConfig().cacheDir): ContractArtifact {
  const source = readFileSync(TEST_USDC_SOURCE_PATH, 'utf8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of a heavy module
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const hash = createHash('sha256')
    .update(JSON.stringify({ source, solcVersion, SETTINGS }))
    .digest('hex')
    .slice(0, 16);
  const cacheFile = join(cacheDir ?? defaultCacheDir(), `test-usdc-${hash}.json`);
  if (existsSync(cacheFile)) {
    return JSON.parse(readFileSync(cacheFile, 'utf8')) as ContractArtifact;
  }
  const artifact = compile(source);
  mkdirSync(dirname(cacheFile), { recursive: true });
  // write-then-rename so a parallel reader never sees a half-written file
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(artifact));
  renameSync(tmp, cacheFile);
  return artifact;
}

function compile(source: string): ContractArtifact {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy load of a heavy module
  const solc = require('solc') as { compile: (input: string) => string };
  const input = { language: 'Solidity', sources: { [SOURCE_NAME]: { content: source } }, settings: SETTINGS };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(
      `solc failed to compile ${SOURCE_NAME}:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`,
    );
  }
  const contract = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!contract) throw new Error(`solc produced no ${CONTRACT_NAME} in ${SOURCE_NAME}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

function defaultCacheDir(): string {
  for (let dir = __dirname; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'onramp');
  }
  return join(tmpdir(), 'onramp-cache');
}
