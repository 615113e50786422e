// The platform under test, in a process of its own (so the load generator never shares its event
// loop), started through the same launchers as `npm start`. Tells the bench its URLs and env over
// IPC once ready; stops everything when the bench says so or goes away.
import {
  AppName,
  launchEmbedded,
  launchPlatform,
  loadRunnerConfig,
  PlatformHandle,
} from '@onramp/platform-runner';

import { CounterSnapshot, installedCounter } from './statement-count/counter';

// A further process of an app beside the first (distributed mode only), with settings of its own:
// P3 starts chain-settlement processes that each sign with their own key.
export interface StartAppRequest {
  type: 'start-app';
  id: number;
  name: AppName;
  instance: string;
  env: Record<string, string>;
}
export interface StartAppReply {
  type: 'app-started';
  id: number;
  error?: string;
}
// The statement counter's snapshot (`--count-statements`: statement-count/hook.ts loaded here).
export interface StatsRequest {
  type: 'stats';
  id: number;
}
export interface StatsReply {
  type: 'stats';
  id: number;
  snapshot?: CounterSnapshot;
  error?: string;
}
type HostRequest = { type: 'stop' } | StartAppRequest | StatsRequest;

export interface HostReady {
  type: 'ready';
  ms: number;
  urls: PlatformHandle['urls'];
  env: Record<string, string>;
  secrets: PlatformHandle['secrets'];
  report: PlatformHandle['infra']['report'];
}

async function main(): Promise<void> {
  const [mode, logDir, offset] = process.argv.slice(2);
  const t0 = Date.now();
  const launch = mode === 'distributed' ? launchPlatform : launchEmbedded;
  const platform = await launch({
    config: loadRunnerConfig(process.env),
    logDir,
    portOffset: Number(offset),
    env: benchEnv(),
    // `--cpu-prof` in distributed mode: each app writes its own profile (the bench sets the dir)
    nodeArgs: process.env.BENCH_APP_CPU_PROF_DIR
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_APP_CPU_PROF_DIR}`]
      : undefined,
  });
  const ready: HostReady = {
    type: 'ready',
    ms: Date.now() - t0,
    urls: platform.urls,
    env: platform.env,
    secrets: platform.secrets,
    report: platform.infra.report,
  };
  process.send?.(ready);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    platform.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('message', (m: HostRequest) => {
    if (m.type === 'stop') stop();
    if (m.type === 'start-app') void startFurther(platform, m, mode === 'distributed');
    if (m.type === 'stats') process.send?.(statsReply(m));
  });
  process.on('disconnect', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function startFurther(
  platform: PlatformHandle,
  m: StartAppRequest,
  distributed: boolean,
): Promise<void> {
  const reply: StartAppReply = { type: 'app-started', id: m.id };
  try {
    // the embedded platform runs each app once, in its own process
    if (!distributed) throw new Error('further app processes need --distributed');
    await platform.startApp(m.name, { instance: m.instance, env: m.env });
  } catch (err) {
    reply.error = err instanceof Error ? err.message : String(err);
  }
  process.send?.(reply);
}

function statsReply(m: StatsRequest): StatsReply {
  const counter = installedCounter();
  return counter
    ? { type: 'stats', id: m.id, snapshot: counter.snapshot() }
    : { type: 'stats', id: m.id, error: 'the statement counter is not loaded (--count-statements)' };
}

// Rate limits off (the bench is the only client and would be throttled first); quiet logs.
function benchEnv(): Record<string, string> {
  return {
    RATE_LIMIT_PER_SECOND: '0',
    RATE_LIMIT_PER_CLIENT_PER_SECOND: '0',
    AUTH_TOKEN_RATE_LIMIT_PER_SECOND: '0',
    ADMIN_RATE_LIMIT_PER_SECOND: '0',
    AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
    LOG_LEVEL: 'warn',
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    // BENCH_ENV_X=1 sets X=1 in the platform: for trying a setting without editing code
    ...Object.fromEntries(
      Object.entries(process.env).flatMap(([k, v]) =>
        k.startsWith('BENCH_ENV_') && v ? [[k.slice(10), v]] : [],
      ),
    ),
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`platform host: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
