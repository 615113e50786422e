import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync, WriteStream } from 'node:fs';
import { join } from 'node:path';

import { findRepoRoot, InfraHandle, startInfra, waitFor } from '@onramp/testing';

import { PlatformPorts, resolvePorts, serviceEnv } from './ports';
import { LocalSecrets, loadLocalSecrets } from './secrets';

export const SERVICES = [
  'auth',
  'kyc',
  'orders',
  'payment-ingest',
  'chain-settlement',
  'webhook-dispatch',
] as const;
export const APPS = [...SERVICES, 'gateway'] as const;
export type AppName = (typeof APPS)[number];

export interface LaunchOptions {
  dataDir?: string; // persistent state; undefined = throw-away
  logDir: string;
  portOffset?: number;
  env?: Record<string, string>; // extra env for every app (e.g. a short token TTL in tests)
  echo?: boolean; // stream app logs to this terminal
  chainPort?: number;
}

export interface PlatformHandle {
  ports: PlatformPorts;
  urls: { base: string; kyc: string; admin: string; rpc: string };
  env: Record<string, string>;
  secrets: LocalSecrets;
  infra: InfraHandle;
  startApp(name: AppName): Promise<void>;
  killApp(name: AppName, signal?: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

export const readyPath = (name: AppName) => (name === 'gateway' ? '/health' : '/health/ready');

export function portOf(ports: PlatformPorts, name: AppName): number {
  switch (name) {
    case 'auth':
      return ports.auth;
    case 'kyc':
      return ports.kycService;
    case 'orders':
      return ports.orders;
    case 'payment-ingest':
      return ports.paymentIngest;
    case 'chain-settlement':
      return ports.chainSettlement;
    case 'webhook-dispatch':
      return ports.webhookDispatch;
    case 'gateway':
      return ports.base;
  }
}

// Starts real Postgres, Kafka and anvil (or uses DATABASE_URL / KAFKA_BROKERS / RPC_URL), then every
// app as its own process, and waits until each one reports ready.
export async function launchPlatform(opts: LaunchOptions): Promise<PlatformHandle> {
  const root = findRepoRoot();
  mkdirSync(opts.logDir, { recursive: true });
  const ports = resolvePorts(process.env, opts.portOffset ?? 0);
  const infra = await startInfra({ dataDir: opts.dataDir, chainPort: opts.chainPort });
  const secrets = loadLocalSecrets(opts.dataDir);
  const env: Record<string, string> = {
    ONRAMP_MODE: 'sandbox',
    ...infra.env,
    ...serviceEnv(ports),
    ...secrets,
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    ...(opts.env ?? {}),
  };
  const children = new Map<AppName, { proc: ChildProcess; log: WriteStream }>();

  const startApp = async (name: AppName): Promise<void> => {
    const log = createWriteStream(join(opts.logDir, `${name}.log`), { flags: 'a' });
    const proc = spawn(process.execPath, ['-r', '@swc-node/register', join('apps', name, 'src', 'main.ts')], {
      cwd: root,
      env: { ...process.env, ...env, SWC_NODE_PROJECT: join(root, 'tsconfig.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [proc.stdout, proc.stderr]) {
      stream?.pipe(log, { end: false });
      if (opts.echo) stream?.on('data', (chunk: Buffer) => process.stdout.write(prefix(name, chunk)));
    }
    children.set(name, { proc, log });
    const port = portOf(ports, name);
    await waitFor(
      async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) {
          throw new Error(
            `${name} exited (${proc.exitCode ?? proc.signalCode}):\n${tail(join(opts.logDir, `${name}.log`))}`,
          );
        }
        const res = await fetch(`http://127.0.0.1:${port}${readyPath(name)}`).catch(() => undefined);
        return res?.ok === true;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: `${name} ready on :${port}` },
    ).catch((err: unknown) => {
      throw new Error(
        `${err instanceof Error ? err.message : String(err)}\n${tail(join(opts.logDir, `${name}.log`))}`,
      );
    });
  };

  const killApp = async (name: AppName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const child = children.get(name);
    if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
    child.proc.kill(signal);
    const timer = setTimeout(() => child.proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    child.log.end();
    children.delete(name);
  };

  const stop = async (): Promise<void> => {
    await killApp('gateway');
    await Promise.allSettled(SERVICES.map((s) => killApp(s)));
    await infra.stop();
  };

  try {
    await Promise.all(SERVICES.map((s) => startApp(s)));
    await startApp('gateway');
  } catch (err) {
    await stop().catch(() => undefined);
    throw err;
  }

  return {
    ports,
    env,
    secrets,
    infra,
    urls: {
      base: `http://127.0.0.1:${ports.base}`,
      kyc: `http://127.0.0.1:${ports.kyc}`,
      admin: `http://127.0.0.1:${ports.admin}`,
      rpc: infra.env.RPC_URL,
    },
    startApp,
    killApp,
    stop,
  };
}

function prefix(name: string, chunk: Buffer): string {
  return chunk
    .toString()
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => `[${name}] ${l}\n`)
    .join('');
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
