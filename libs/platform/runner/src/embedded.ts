import { mkdirSync } from 'node:fs';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

import { Logger } from '@nestjs/common';

import { InProcessUpstreams } from '@onramp/gateway-feature';
import { startInfra, waitFor } from '@onramp/platform-infra';

import { claimDataDir } from './data-dir-lock';
import { Closable, loadAppStarter, withoutSignalHooks } from './embedded-apps';
import { FileLogger } from './file-logger';
import { launchMode } from './mode';
import {
  AppName,
  assertLaunchable,
  launchEnv,
  LaunchOptions,
  PlatformHandle,
  portOf,
  readyPath,
  SERVICES,
} from './platform';
import { tail } from './log-tail';
import { assertPortsFree } from './port-check';
import { platformUrls, resolvePorts } from './ports';
import { loadLocalSecrets } from './secrets';

export const EMBEDDED_LOG_FILE = 'platform.log';

// The `npm start` default: embedded Postgres and anvil (or DATABASE_URL / RPC_URL), no Kafka, and all
// seven apps in THIS process, each still its own Nest application with its own module graph, schema
// and port. Events travel over the embedded transport (a durable log in Postgres), so what a crash
// interrupts is picked up on the next start. Same handle as launchPlatform, so the e2e suite takes either.
export async function launchEmbedded(opts: LaunchOptions): Promise<PlatformHandle> {
  mkdirSync(opts.logDir, { recursive: true });
  const { env: environment, infra: infraConfig } = opts.config;
  const ports = resolvePorts(environment, opts.portOffset ?? 0);
  const mode = launchMode(opts.env, environment);
  assertLaunchable(mode, { ...environment, ...opts.env });
  const releaseDataDir = opts.dataDir ? await claimDataDir(opts.dataDir) : () => undefined;
  await assertPortsFree(ports).catch((err: unknown) => {
    releaseDataDir();
    throw err;
  });
  const secrets = loadLocalSecrets(opts.dataDir, environment, mode);
  const infra = await startInfra(infraConfig, {
    dataDir: opts.dataDir,
    // State in a data dir needs local servers: a Postgres container would not keep it there
    // (ONRAMP_DOCKER, when set, still decides).
    docker: opts.dataDir && infraConfig.docker.setting === 'unset' ? false : undefined,
    kafka: false,
    chainPort: opts.chainPort,
    hotWalletKey: secrets.SETTLEMENT_SIGNER_KEY,
  }).catch((err: unknown) => {
    releaseDataDir();
    throw err;
  });
  const env: Record<string, string> = {
    ...launchEnv(mode, infra, ports, secrets),
    EVENT_TRANSPORT: 'embedded',
    // one process, one log file (the FileLogger below): production mode's JSON-on-stdout would bypass it
    LOG_FORMAT: environment.LOG_FORMAT || 'pretty',
    ...(opts.env ?? {}),
  };
  // Each service's config is parsed from this environment (the launching one, overlaid with what the
  // runner computed), never from the process's, which stays as it was; one environment serves all
  // seven, since each has its own port variable.
  const appEnv: NodeJS.ProcessEnv = { ...environment, ...env };
  const logFile = join(opts.logDir, EMBEDDED_LOG_FILE);
  const logger = new FileLogger(logFile, opts.echo);
  Logger.overrideLogger(logger);

  const running = new Map<AppName, Closable[]>();
  // The gateway hands each request to the service's server in this process, in memory: the same
  // HTTP on both sides without a loopback socket (ONRAMP_EMBEDDED_LOOPBACK=1 keeps the socket).
  const upstreams = appEnv.ONRAMP_EMBEDDED_LOOPBACK === '1' ? undefined : new InProcessUpstreams();
  const httpServersOf = (apps: Closable[]): { port: number; server: Server }[] =>
    apps.flatMap((app) => {
      const server = app.getHttpServer?.() as Server | undefined;
      const address = server?.address() as AddressInfo | null | undefined;
      return server && address?.port ? [{ port: address.port, server }] : [];
    });

  const startApp = async (name: AppName): Promise<void> => {
    const start = loadAppStarter(name, appEnv, upstreams);
    const started = await withoutSignalHooks(start);
    const apps = Array.isArray(started) ? started : [started];
    running.set(name, apps);
    if (name !== 'gateway') for (const { port, server } of httpServersOf(apps)) upstreams?.add(port, server);
    const port = portOf(ports, name);
    await waitFor(
      async () =>
        (await fetch(`http://127.0.0.1:${port}${readyPath(name)}`).catch(() => undefined))?.ok === true,
      { timeoutMs: 60_000, intervalMs: 100, description: `${name} ready on :${port}` },
    );
  };

  // In one process there is nothing to signal: the app closes (its consumers stop, its pools drain).
  const killApp = async (name: AppName): Promise<void> => {
    const apps = running.get(name);
    running.delete(name);
    for (const { port } of httpServersOf(apps ?? [])) upstreams?.remove(port);
    await Promise.allSettled((apps ?? []).map((app) => app.close()));
  };

  const stop = async (): Promise<void> => {
    await killApp('gateway');
    await Promise.allSettled(SERVICES.map((s) => killApp(s)));
    await infra.stop();
    releaseDataDir();
    await logger.close();
  };

  try {
    await Promise.all(SERVICES.map((s) => startApp(s)));
    await startApp('gateway');
  } catch (err) {
    await stop().catch(() => undefined);
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(`${message}\n--- ${logFile} ---\n${tail(logFile)}`, { cause: err });
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
