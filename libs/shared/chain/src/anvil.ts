import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

import { loadLocalChainConfig } from './config';

// Anvil's default mnemonic ("test test ... junk") accounts: public keys known to everyone, never for real funds.
export const ANVIL_DEPLOYER_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const ANVIL_HOT_WALLET_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const ANVIL_ACCOUNT_2_KEY = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';
export const ANVIL_ACCOUNT_3_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
export const ANVIL_DEFAULT_CHAIN_ID = 31337;

export interface StartAnvilOptions {
  port?: number; // 0 or undefined: a free port
  chainId?: number;
  blockTimeSeconds?: number; // undefined: mine a block per transaction
  stateFile?: string; // loaded at start, dumped at stop
  stateIntervalSeconds?: number; // with stateFile: also dump every N seconds, so a SIGKILLed anvil keeps its chain
  slotsInAnEpoch?: number; // anvil's 'safe' block trails the head by this many blocks, 'finalized' by twice as many (default 32)
  startTimeoutMs?: number;
  binary?: string; // default: ANVIL_BIN, else the @foundry-rs/anvil binary (see config.ts)
}

export interface AnvilHandle {
  rpcUrl: string;
  chainId: number;
  pid: number;
  stop(): Promise<void>;
}

const OUTPUT_LIMIT = 8_000;
const STOP_GRACE_MS = 5_000;

export async function startAnvil(opts: StartAnvilOptions = {}): Promise<AnvilHandle> {
  if (opts.port) await assertChainPortFree(opts.port);
  const port = opts.port || (await freePort());
  const chainId = opts.chainId ?? ANVIL_DEFAULT_CHAIN_ID;
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent'];
  if (opts.blockTimeSeconds !== undefined) args.push('--block-time', String(opts.blockTimeSeconds));
  if (opts.slotsInAnEpoch !== undefined) args.push('--slots-in-an-epoch', String(opts.slotsInAnEpoch));
  if (opts.stateFile) args.push('--state', opts.stateFile);
  if (opts.stateFile && opts.stateIntervalSeconds)
    args.push('--state-interval', String(opts.stateIntervalSeconds));

  const child = spawn(anvilBinary(opts.binary), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let exitCode: number | undefined; // set once the process is gone
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code ?? -1;
      resolve();
    });
    child.once('error', (err) => {
      collect(Buffer.from(`spawn error: ${err.message}\n`));
      exitCode = -1;
      resolve();
    });
  });

  // A normal exit of the parent must not leave anvil running (a SIGKILLed parent is the caller's problem).
  // SIGTERM, not SIGKILL: anvil exits promptly and still dumps --state.
  const killOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', killOnExit);

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (exitCode !== undefined) return;
    child.kill('SIGTERM'); // lets anvil dump --state
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };

  const rpcUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForRpc(rpcUrl, opts.startTimeoutMs ?? 20_000, () => exitCode);
  } catch (err) {
    await stop();
    throw new Error(
      `anvil did not start on ${rpcUrl}: ${(err as Error).message}\n--- anvil output ---\n${output}`,
    );
  }
  return { rpcUrl, chainId, pid: child.pid ?? -1, stop };
}

// A fixed port already taken must stop us: anvil would fail to bind, but the node already there
// answers our readiness probe, and we would deploy to and pay on a chain that is not ours.
export async function assertChainPortFree(port: number): Promise<void> {
  const inUse = await new Promise<boolean>((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(true));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(false)));
  });
  if (!inUse) return;
  const occupant = await fetch(`http://127.0.0.1:${port}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(2_000),
  })
    .then(async (res) => {
      const body = (await res.json()) as { result?: string };
      return body.result
        ? `another JSON-RPC node (chain id ${Number(body.result)})`
        : 'a program that is not a JSON-RPC node';
    })
    .catch(() => 'a program that is not a JSON-RPC node');
  throw new Error(
    `chain port ${port} is already in use by ${occupant}; refusing to deploy to or pay on a node we did not start. ` +
      'Stop it, or pick another port with CHAIN_RPC_PORT=<port> (or use that node on purpose with RPC_URL).',
  );
}

// The configured binary (ANVIL_BIN), else the one of this platform's @foundry-rs/anvil package.
export function anvilBinary(configured: string | undefined = loadLocalChainConfig().anvilBin): string {
  if (configured) return configured;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let pkgDir: string;
  try {
    pkgDir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(
      `No anvil binary for ${process.platform}-${process.arch}: npm package ${pkg} is not installed ` +
        `(it is an optional dependency of @foundry-rs/anvil). Install it or set ANVIL_BIN.`,
    );
  }
  const bin = join(pkgDir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(bin)) throw new Error(`${pkg} is installed but ${bin} is missing (postinstall skipped?)`);
  return bin;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not allocate a port'))));
    });
  });
}

async function waitForRpc(
  rpcUrl: string,
  timeoutMs: number,
  exitCode: () => number | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no answer';
  while (Date.now() < deadline) {
    if (exitCode() !== undefined) throw new Error(`anvil exited with code ${String(exitCode())}`);
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(1_000),
      });
      if (res.ok) return;
      lastError = `HTTP ${res.status}`;
    } catch (err) {
      lastError = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms (${lastError})`);
}
