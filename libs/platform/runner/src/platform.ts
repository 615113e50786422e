import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, WriteStream } from 'node:fs';
import { join } from 'node:path';

import { freePort } from '@onramp/chain';
import { findRepoRoot, InfraHandle, startInfra, waitFor } from '@onramp/platform-infra';

import type { RunnerConfig } from './config';

import { tail } from './log-tail';
import { assertPortsFree } from './port-check';
import { platformUrls, PlatformPorts, resolvePorts, serviceEnv } from './ports';
import { launchMode, OnrampMode, productionLaunchProblems } from './mode';
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
  config: RunnerConfig; // the launching environment, parsed once (loadRunnerConfig)
  dataDir?: string; // persistent state; undefined = throw-away
  logDir: string;
  portOffset?: number;
  env?: Record<string, string>; // extra env for every app (e.g. a short token TTL in tests)
  echo?: boolean; // stream app logs to this terminal
  chainPort?: number;
  // A production install (dist/ from `npm run build` and node_modules without devDependencies, see
  // tools/build/production-install.js): then the migrate and kafka-topics steps run first and every
  // app starts as `node <compiledRoot>/dist/apps/<app>/main.js`, as in the image. Default: sources.
  compiledRoot?: string;
  // Node flags for every app process (launchPlatform only), e.g. `--cpu-prof` for the bench: Node
  // refuses --cpu-prof in NODE_OPTIONS, so a flag has to reach each app's command line.
  nodeArgs?: string[];
}

// For fault-injection tests: a process started with its own settings, or a further process of an
// app beside the first (same database, same consumer group). Honoured by launchPlatform only.
export interface AppProcessOptions {
  instance?: string; // e.g. "2": log file <app>-2.log and a free port of its own (not the gateway)
  env?: Record<string, string>; // on top of the platform's env, for this process only
}

export interface PlatformHandle {
  ports: PlatformPorts;
  urls: { base: string; kyc: string; admin: string; rpc: string };
  env: Record<string, string>;
  secrets: LocalSecrets;
  infra: InfraHandle;
  startApp(name: AppName, opts?: AppProcessOptions): Promise<void>;
  killApp(name: AppName, signal?: NodeJS.Signals, opts?: Pick<AppProcessOptions, 'instance'>): Promise<void>;
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

const PORT_ENV: Record<Exclude<AppName, 'gateway'>, string> = {
  auth: 'AUTH_PORT',
  kyc: 'KYC_SERVICE_PORT',
  orders: 'ORDERS_PORT',
  'payment-ingest': 'PAYMENT_INGEST_PORT',
  'chain-settlement': 'CHAIN_SETTLEMENT_PORT',
  'webhook-dispatch': 'WEBHOOK_DISPATCH_PORT',
};

const processKey = (name: AppName, instance?: string): string => (instance ? `${name}-${instance}` : name);

// Starts real Postgres, Kafka and anvil (or uses DATABASE_URL / KAFKA_BROKERS / RPC_URL), then every
// app as its own process, and waits until each one reports ready.
export async function launchPlatform(opts: LaunchOptions): Promise<PlatformHandle> {
  const root = findRepoRoot();
  mkdirSync(opts.logDir, { recursive: true });
  const { env: environment, infra: infraConfig } = opts.config;
  const ports = resolvePorts(environment, opts.portOffset ?? 0);
  const mode = launchMode(opts.env, environment);
  assertLaunchable(mode, { ...environment, ...opts.env });
  await assertPortsFree(ports);
  const secrets = loadLocalSecrets(opts.dataDir, environment, mode);
  const infra = await startInfra(infraConfig, {
    dataDir: opts.dataDir,
    chainPort: opts.chainPort,
    hotWalletKey: secrets.SETTLEMENT_SIGNER_KEY,
  });
  const env: Record<string, string> = {
    ...launchEnv(mode, infra, ports, secrets),
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    NO_COLOR: '1', // app output goes to log files: no ANSI colour codes in them
    ...(opts.env ?? {}),
  };
  const children = new Map<string, { proc: ChildProcess; log: WriteStream }>();
  const nodeArgs = opts.nodeArgs ?? [];

  const startApp = async (name: AppName, p: AppProcessOptions = {}): Promise<void> => {
    const key = processKey(name, p.instance);
    const logFile = join(opts.logDir, `${key}.log`);
    const own: Record<string, string> = { ...(p.env ?? {}) };
    if (p.instance) {
      if (name === 'gateway') throw new Error('the gateway runs as one process only');
      own[PORT_ENV[name]] ??= String(await freePort());
    }
    const port = name === 'gateway' ? ports.base : Number(own[PORT_ENV[name]] ?? portOf(ports, name));
    const log = createWriteStream(logFile, { flags: 'a' });
    const proc = opts.compiledRoot
      ? spawn(process.execPath, [...nodeArgs, compiledEntry(opts.compiledRoot, 'apps', name)], {
          cwd: opts.compiledRoot,
          env: { ...environment, ...env, ...own },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(
          process.execPath,
          [...nodeArgs, '-r', '@swc-node/register', join('apps', name, 'src', 'main.ts')],
          {
            cwd: root,
            env: { ...environment, ...env, ...own, SWC_NODE_PROJECT: join(root, 'tsconfig.json') },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
    for (const stream of [proc.stdout, proc.stderr]) {
      stream?.pipe(log, { end: false });
      if (opts.echo) stream?.on('data', (chunk: Buffer) => process.stdout.write(prefix(key, chunk)));
    }
    children.set(key, { proc, log });
    await waitFor(
      async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) {
          throw new Error(`${key} exited (${proc.exitCode ?? proc.signalCode}):\n${tail(logFile)}`);
        }
        const res = await fetch(`http://127.0.0.1:${port}${readyPath(name)}`).catch(() => undefined);
        return res?.ok === true;
      },
      { timeoutMs: 120_000, intervalMs: 250, description: `${key} ready on :${port}` },
    ).catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${tail(logFile)}`);
    });
  };

  const killProcess = async (key: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const child = children.get(key);
    if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.proc.once('exit', () => resolve()));
    child.proc.kill(signal);
    const timer = setTimeout(() => child.proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    child.log.end();
    children.delete(key);
  };
  const killApp = (name: AppName, signal?: NodeJS.Signals, p: Pick<AppProcessOptions, 'instance'> = {}) =>
    killProcess(processKey(name, p.instance), signal);

  const stop = async (): Promise<void> => {
    await killApp('gateway');
    await Promise.allSettled([...children.keys()].map((key) => killProcess(key))); // with further instances
    await infra.stop();
  };

  try {
    if (opts.compiledRoot) {
      // As a deployment does it: schema and topics first, then apps that neither migrate nor create topics.
      await runStep(
        opts.compiledRoot,
        ['tools', 'migrate'],
        ['all'],
        { ...environment, ...env },
        opts.logDir,
      );
      await runStep(
        opts.compiledRoot,
        ['tools', 'kafka-topics'],
        [],
        { ...environment, ...env },
        opts.logDir,
      );
      Object.assign(env, { DB_MIGRATE_AT_BOOT: 'false', KAFKA_CREATE_TOPICS: 'false' });
    }
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
    urls: platformUrls(ports, infra.env.RPC_URL),
    startApp,
    killApp,
    stop,
  };
}

// What every app of a launch is given, in either mode: the mode, the servers' addresses, the ports
// and the local secrets.
export function launchEnv(
  mode: OnrampMode,
  infra: Pick<InfraHandle, 'env'>,
  ports: PlatformPorts,
  secrets: LocalSecrets,
): Record<string, string> {
  return {
    ONRAMP_MODE: mode,
    ...infra.env,
    ...serviceEnv(ports),
    ...secrets,
    // The launcher owns these servers: in production mode too, the apps bring their own schema and topics
    // (a deployment runs the migrate and kafka-topics steps instead; so does a compiled launch).
    ...(mode === 'production' ? { DB_MIGRATE_AT_BOOT: 'true', KAFKA_CREATE_TOPICS: 'true' } : {}),
  };
}

// Production mode needs the operator's collection account before anything starts; `env` is the
// launching environment overlaid with the launch's own variables.
export function assertLaunchable(mode: OnrampMode, env: Record<string, string | undefined>): void {
  if (mode !== 'production') return;
  const problems = productionLaunchProblems(env);
  if (problems.length > 0) throw new Error(problems.join('; '));
}

function prefix(name: string, chunk: Buffer): string {
  return chunk
    .toString()
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => `[${name}] ${l}\n`)
    .join('');
}

function compiledEntry(compiledRoot: string, ...path: string[]): string {
  const entry = join(compiledRoot, 'dist', ...path, 'main.js');
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  return entry;
}

// A one-shot deployment step of the build (migrate, kafka-topics); its output goes to <step>.log.
async function runStep(
  compiledRoot: string,
  path: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  logDir: string,
): Promise<void> {
  const logFile = join(logDir, `${path[path.length - 1]}.log`);
  const proc = spawn(process.execPath, [compiledEntry(compiledRoot, ...path), ...args], {
    cwd: compiledRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(logFile, { flags: 'a' });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)));
  await new Promise<void>((resolve) => log.end(() => resolve()));
  if (code !== 0) throw new Error(`${path.join('/')} exited ${code}:\n${tail(logFile)}`);
}
