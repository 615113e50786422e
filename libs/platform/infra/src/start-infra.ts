import { join } from 'node:path';

import { assertChainPortFree } from '@onramp/chain';

import { startChain } from './chain';
import type { InfraConfig } from './config';
import { startKafka } from './kafka';
import { assertReachable, startPostgres } from './postgres';

export interface StartInfraOptions {
  // Persistent state (Postgres cluster, Kafka topics, anvil state) under this directory;
  // default: throw-away directories removed on stop.
  dataDir?: string;
  postgres?: boolean; // each defaults to true
  kafka?: boolean;
  chain?: boolean;
  // false: never a container; default: a container when Docker answers (ONRAMP_DOCKER=0: never)
  docker?: boolean;
  chainPort?: number; // `npm start` pins anvil to :8545 (CHAIN_RPC_PORT); tests take a free port
  // The settlement signer to fund on a local chain (production mode refuses anvil's public keys).
  hotWalletKey?: string;
}

export interface InfraHandle {
  // DATABASE_URL, KAFKA_BROKERS, RPC_URL, CHAIN_ID, USDC_ADDRESS, SETTLEMENT_SIGNER_KEY, USDC_OWNER_KEY
  env: Record<string, string>;
  // how each piece was provided and how long it took, for logs
  report: Array<{ name: string; source: string; ms: number }>;
  // Servers that can be stopped and started again with their data (local processes only), for
  // fault-injection tests.
  restartable?: Partial<Record<'postgres' | 'kafka', RestartableServer>>;
  stop(): Promise<void>;
}

export interface RestartableServer {
  stopServer(): Promise<void>;
  startServer(): Promise<void>;
}

interface Started {
  name: string;
  source: string;
  ms: number;
  env: Record<string, string>;
  stop(): Promise<void>;
  restartable?: RestartableServer;
}

// Starts the three servers in parallel. Each one honours its existing server in `config`
// (DATABASE_URL, KAFKA_BROKERS, RPC_URL) first, then Docker, then a local process. If any fails, the
// others are stopped before rethrowing.
export async function startInfra(config: InfraConfig, opts: StartInfraOptions = {}): Promise<InfraHandle> {
  const dir = (name: string): string | undefined => (opts.dataDir ? join(opts.dataDir, name) : undefined);
  await preflight(config, opts);
  const starts: Array<Promise<Started>> = [];
  if (opts.postgres !== false) {
    starts.push(
      timed('postgres', async () => {
        const pg = await startPostgres(config, { dataDir: dir('postgres'), docker: opts.docker });
        return {
          source: pg.source,
          env: { DATABASE_URL: pg.url },
          stop: pg.stop,
          restartable: restartable(pg),
        };
      }),
    );
  }
  if (opts.kafka !== false) {
    starts.push(
      timed('kafka', async () => {
        const kafka = await startKafka(config, { kafkaHome: dir('kafka') });
        return {
          source: kafka.source,
          env: { KAFKA_BROKERS: kafka.brokers },
          stop: kafka.stop,
          restartable: restartable(kafka),
        };
      }),
    );
  }
  if (opts.chain !== false) {
    starts.push(
      timed('chain', async () => {
        const chain = await startChain(config, {
          dataDir: dir('chain'),
          port: opts.chainPort,
          hotWalletKey: opts.hotWalletKey,
        });
        const env = {
          RPC_URL: chain.rpcUrl,
          CHAIN_ID: String(chain.chainId),
          USDC_ADDRESS: chain.usdcAddress,
          SETTLEMENT_SIGNER_KEY: chain.hotWalletKey,
          USDC_OWNER_KEY: chain.deployerKey,
        };
        return { source: chain.source, env, stop: chain.stop };
      }),
    );
  }

  const results = await Promise.allSettled(starts);
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stop = once(() => stopAll(started));
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  if (failures.length > 0) {
    await stop().catch(() => undefined);
    throw new Error(
      `infrastructure failed to start:\n${failures.map((f) => (f instanceof Error ? f.message : String(f))).join('\n')}`,
    );
  }
  return {
    env: Object.assign({}, ...started.map((s) => s.env)) as Record<string, string>,
    report: started.map(({ name, source, ms }) => ({ name, source, ms })),
    restartable: Object.fromEntries(
      started.flatMap((s) => (s.restartable ? [[s.name, s.restartable]] : [])),
    ) as NonNullable<InfraHandle['restartable']>,
    stop,
  };
}

// The checks that take milliseconds, before the starts that take seconds (a fresh Postgres cluster,
// the token deployment): a wrong DATABASE_URL or a taken chain port is reported at once, not after
// the other servers have come up only to be stopped again.
async function preflight(config: InfraConfig, opts: StartInfraOptions): Promise<void> {
  const checks: Array<Promise<void>> = [];
  const databaseUrl = config.databaseUrl;
  if (opts.postgres !== false && databaseUrl) checks.push(assertReachable(databaseUrl));
  if (opts.chain !== false && !config.chain.rpcUrl && opts.chainPort)
    checks.push(assertChainPortFree(opts.chainPort));
  const failures = (await Promise.allSettled(checks)).flatMap((r) =>
    r.status === 'rejected' ? [r.reason instanceof Error ? r.reason.message : String(r.reason)] : [],
  );
  if (failures.length > 0) throw new Error(failures.join('\n'));
}

function restartable(handle: Partial<RestartableServer>): RestartableServer | undefined {
  const { stopServer, startServer } = handle;
  return stopServer && startServer ? { stopServer, startServer } : undefined;
}

async function timed(name: string, start: () => Promise<Omit<Started, 'name' | 'ms'>>): Promise<Started> {
  const t0 = Date.now();
  try {
    return { name, ...(await start()), ms: Date.now() - t0 };
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

async function stopAll(started: Started[]): Promise<void> {
  const results = await Promise.allSettled(started.map((s) => s.stop()));
  const errors = results.flatMap((r, i) =>
    r.status === 'rejected' ? [`${started[i]?.name}: ${String(r.reason)}`] : [],
  );
  if (errors.length > 0) throw new Error(`infrastructure did not stop cleanly:\n${errors.join('\n')}`);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}
