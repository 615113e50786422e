// `npm run soak [-- --orders 1000 --kill-every-ms 5000 --concurrency 20 --seed 1 ...]`
//
// A soak run of the distributed platform (every app its own process on real Postgres, Kafka and
// anvil): N orders from a few merchants while a random app is SIGKILLed every few seconds and
// started again; then, with the killer stopped and nothing in flight, money must have moved exactly
// once (reconciliation against the chain) and every order's webhook must have arrived as one event.
// Prints a figures table. Exit 0: every invariant held; 1: one did not; 2: the run itself failed.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ConfigError } from '@onramp/config';
import { launchPlatform, loadRunnerConfig, PlatformHandle } from '@onramp/platform-runner';

import { startAppKiller } from './app-killer';
import { formatFigures } from './figures-table';
import { driveOrders, planOrders } from './order-driver';
import { RetryStats } from './retry-call';
import { SeededRandom } from './seeded-random';
import { openSoakMerchants } from './soak-merchant';
import { parseSoakOptions, SOAK_USAGE } from './soak-options';
import { judgeSoak } from './soak-verdict';
import { waitForQuiescence } from './wait-for-quiescence';

const log = (line: string): void =>
  void process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

async function main(platformRef: { current?: PlatformHandle }): Promise<number> {
  const opts = parseSoakOptions(process.argv.slice(2));
  const t0 = Date.now();
  const logDir = join(mkdtempSync(join(tmpdir(), 'onramp-soak-')), 'logs');
  log(
    `${opts.orders} orders, ${opts.merchants} merchants, ${opts.concurrency} in flight, seed ${opts.seed}; ` +
      `SIGKILL one of ${opts.victims.join('/')} every ${opts.killEveryMs} ms, down ${opts.downMs} ms; logs in ${logDir}`,
  );
  const platform = await launchPlatform({
    config: loadRunnerConfig(process.env),
    logDir,
    portOffset: opts.portOffset,
    // as the chaos suite: a SIGKILLed consumer's partitions move on after 6 s, webhook retries are quick
    env: {
      LOG_LEVEL: 'info',
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_RETRY_MAX_MS: '2000',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    },
  });
  platformRef.current = platform;
  log(`platform up in ${((Date.now() - t0) / 1000).toFixed(1)} s (${platform.urls.base})`);

  const setupStats: RetryStats = { retries: 0 };
  const merchants = await openSoakMerchants(
    {
      baseUrl: platform.urls.base,
      kycUrl: platform.urls.kyc,
      adminUrl: platform.urls.admin,
      adminKey: platform.secrets.ADMIN_API_KEY,
    },
    opts.merchants,
    setupStats,
  );
  const rng = new SeededRandom(opts.seed);
  const plan = planOrders(opts.orders, merchants, opts.rejectRatio, rng);
  const startupMs = Date.now() - t0;

  const killer = startAppKiller(platform, {
    everyMs: opts.killEveryMs,
    downMs: opts.downMs,
    victims: opts.victims,
    rng: new SeededRandom(opts.seed + 1),
    log,
  });
  const tDrive = Date.now();
  const step = Math.max(1, Math.round(opts.orders / 10));
  const drive = await driveOrders(plan, {
    concurrency: opts.concurrency,
    runId: String(opts.seed),
    orderTimeoutMs: opts.orderTimeoutMs,
    onFinished: (n) =>
      n % step === 0 && log(`${n}/${opts.orders} orders through (${killer.count()} kills so far)`),
  });
  const driveMs = Date.now() - tDrive;
  const killed = await killer.stop();
  log(
    `orders through in ${(driveMs / 1000).toFixed(1)} s, ${killed.kills.length} kills; waiting for quiescence`,
  );

  const tSettle = Date.now();
  const quiet = await waitForQuiescence(platform.env.DATABASE_URL, drive.placed, opts.settleTimeoutMs, log);
  const settleMs = Date.now() - tSettle;
  const verdict = await judgeSoak(
    {
      databaseUrl: platform.env.DATABASE_URL,
      rpcUrl: platform.urls.rpc,
      usdcAddress: platform.env.USDC_ADDRESS,
      kafkaBrokers: platform.env.KAFKA_BROKERS.split(','),
    },
    drive.placed,
  );
  const problems = [
    ...(killed.error ? [`the killer stopped: ${killed.error}`] : []),
    ...drive.errors,
    ...(quiet.reached
      ? []
      : [`no quiescence within ${opts.settleTimeoutMs} ms: ${JSON.stringify(quiet.last)}`]),
    ...verdict.problems,
  ];
  process.stdout.write(
    `\nsoak ${problems.length === 0 ? 'PASSED' : 'FAILED'} (seed ${opts.seed})\n` +
      formatFigures(verdict, {
        planned: opts.orders,
        placed: drive.placed.length,
        kills: killed.kills,
        latenciesMs: drive.placed.flatMap((o) => (o.latencyMs === undefined ? [] : [o.latencyMs])),
        retries: setupStats.retries + drive.retries,
        timings: { startupMs, driveMs, settleMs, totalMs: Date.now() - t0 },
      }) +
      (problems.length
        ? `problems (${problems.length}):\n${problems
            .slice(0, 50)
            .map((p) => `  - ${p}`)
            .join('\n')}\n`
        : ''),
  );
  await Promise.all(merchants.map((m) => m.receiver.stop()));
  return problems.length === 0 ? 0 : 1;
}

const platformRef: { current?: PlatformHandle } = {};
const stopPlatform = async (): Promise<void> => {
  await platformRef.current?.stop().catch((err: unknown) => log(`stop: ${String(err)}`));
};
process.on('SIGINT', () => void stopPlatform().then(() => process.exit(130)));
main(platformRef).then(
  async (code) => {
    await stopPlatform();
    process.exit(code);
  },
  async (err: unknown) => {
    const usage = err instanceof ConfigError ? `usage: ${SOAK_USAGE}\n` : '';
    process.stderr.write(`soak: ${err instanceof Error ? err.message : String(err)}\n${usage}`);
    await stopPlatform();
    process.exit(2);
  },
);
