// `npm run bench [-- --smoke] [--distributed] [--only P1,P3] [--duration <s>] [--p2-rate <n>] [--cpu-prof] [--count-statements]`
//
// Starts a throw-away platform (embedded by default, one process per app over Kafka with
// --distributed) on its own ports and servers, runs the probes P1-P6 against it and against
// baselines measured in the same run on the same Postgres and chain, prints one table and writes
// bench/results/<timestamp>.json. The machine's load moves absolute figures; the ratios to the
// same-run baselines are what to compare between runs. Figures are reported, never asserted.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { Logger } from '@nestjs/common';
import { Pool } from 'pg';

import { findRepoRoot } from '@onramp/platform-infra';

import { BenchContext, Row } from './bench-context';
import { BenchOptions, parseBenchOptions, ProbeId } from './bench-options';
import { formatTable, formatTargets } from './bench-table';
import { stopReceivers } from './bench-merchant';
import { Child, forkScript, treeRssMb } from './child-process';
import { calibrateCpu, CpuCalibration, formatCalibration } from './cpu-calibration';
import { HostReady, StartAppReply, StatsReply } from './platform-host';
import { probeOrderCreation } from './probes/p1-order-creation';
import { P2Result, probeCreditToWebhook } from './probes/p2-credit-to-webhook';
import { probePayoutBurst } from './probes/p3-payout-burst';
import { probeWebhookDispatch } from './probes/p4-webhook-dispatch';
import { probeOutboxRelay } from './probes/p5-outbox-relay';
import { cpuShares, cpuSnapshot, formatCpu } from './process-cpu';
import { formatPoolPeaks, formatPoolWindow, readPools } from './pool-use';
import { fundBaselineSigners } from './raw-chain';
import { sleep } from './stats';
import { CounterSnapshot } from './statement-count/counter';
import { CountWindow, formatWindows, windowReport, WindowReport } from './statement-count/windows';

const started = Date.now();
const log = (line: string): void => {
  const t = ((Date.now() - started) / 1000).toFixed(0).padStart(4);
  process.stderr.write(`[bench +${t}s] ${line}\n`);
};

async function main(opts: BenchOptions, hostRef: { current?: Child<HostReady> }): Promise<number> {
  Logger.overrideLogger(['error']); // the baselines' own library logs (the embedded log's notices)
  const root = findRepoRoot();
  const resultsDir = join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const runDir = mkdtempSync(join(tmpdir(), 'onramp-bench-'));
  const logDir = join(runDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const mode = opts.distributed ? 'distributed' : 'embedded';
  const cpuBefore = calibrateCpu();
  log(formatCalibration('machine speed before the platform starts', cpuBefore));
  log(
    `starting the platform (${mode}, port offset ${opts.portOffset}${opts.smoke ? ', smoke' : ''}); logs in ${logDir}`,
  );

  const host = await forkScript<HostReady>('platform-host.ts', [mode, logDir, String(opts.portOffset)], {
    logFile: join(logDir, 'host.log'),
    // a throw-away platform: never the servers of a running `npm start`
    env: {
      DATABASE_URL: '',
      RPC_URL: '',
      KAFKA_BROKERS: '',
      USDC_ADDRESS: '',
      ...(opts.cpuProf && opts.distributed ? { BENCH_APP_CPU_PROF_DIR: resultsDir } : {}),
    },
    execArgv: [...(opts.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : []), ...opts.nodeFlags],
    requires: opts.countStatements ? ['tools/bench/statement-count/hook.ts'] : [],
    timeoutMs: 600_000,
  });
  hostRef.current = host;
  const platform = host.ready;
  log(`platform ready in ${(platform.ms / 1000).toFixed(1)} s at ${platform.urls.base}`);
  const db = new Pool({ connectionString: platform.env.DATABASE_URL, max: 4 });
  const counted: WindowReport[] = [];
  const snapshot = async (): Promise<CounterSnapshot> => {
    const reply = await host.call<StatsReply>({ type: 'stats' });
    if (!reply.snapshot) throw new Error(reply.error ?? 'no statement counts');
    return reply.snapshot;
  };
  const countWindow = async (probe: string, label: string, operation: string): Promise<CountWindow> => {
    if (!opts.countStatements) return { end: async () => undefined };
    const start = await snapshot();
    return {
      end: async (operations) => {
        counted.push(windowReport({ probe, label, operation, operations }, start, await snapshot()));
      },
    };
  };
  const ctx: BenchContext = {
    opts,
    platform,
    hostPid: host.proc.pid ?? 0,
    db,
    logDir,
    log,
    startApp: async (name, instance, env) => {
      const reply = await host.call<StartAppReply>({ type: 'start-app', name, instance, env });
      if (reply.error) throw new Error(`${name}-${instance}: ${reply.error}`);
    },
    countWindow,
    size: (full, smoke) => (opts.smoke ? smoke : full),
  };
  const rows: Row[] = [];
  const failed: string[] = [];
  let p2Detail: Pick<P2Result, 'stages' | 'cpu'> | undefined; // P2's stage breakdown and CPU by process
  try {
    const idleCpu = cpuSnapshot(ctx.hostPid);
    await sleep(ctx.size(3000, 500));
    log(
      `idle platform, CPU by process (share of one core): ${formatCpu(cpuShares(idleCpu, cpuSnapshot(ctx.hostPid)))}`,
    );
    const idleRss = treeRssMb(ctx.hostPid, 'node');
    await fundBaselineSigners(platform.env, 10n ** 15n);
    if (opts.countStatements) {
      // what the idle platform sends on its own (pollers, heartbeats): part of every window below
      const idle = await countWindow('-', 'idle platform', 'second');
      await sleep(ctx.size(3000, 500));
      await idle.end(ctx.size(3, 0.5));
    }
    let rssUnderLoad: number | undefined;
    const run = async (id: ProbeId, probe: () => Promise<Row[]>): Promise<void> => {
      if (!opts.only.has(id)) return;
      log(`${id}: start`);
      try {
        const pools = await readPools(platform.env, opts.distributed);
        rows.push(...(await probe()));
        log(
          `${id}: database checkouts that queued for a connection: ${formatPoolWindow(pools, await readPools(platform.env, opts.distributed))}`,
        );
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        failed.push(`${id}: ${message}`);
        log(`${id} failed: ${message}`);
      }
    };
    await run('P1', () => probeOrderCreation(ctx));
    await run('P2', async () => {
      const r = await probeCreditToWebhook(ctx);
      rssUnderLoad = r.rssUnderLoadMb;
      p2Detail = { stages: r.stages, cpu: r.cpu };
      return r.rows;
    });
    await run('P3', () => probePayoutBurst(ctx));
    await run('P4', () => probeWebhookDispatch(ctx));
    await run('P5', () => probeOutboxRelay(ctx));
    await run('P6', async () => [
      {
        probe: 'P6',
        metric: `cold start (${mode}, with servers)`,
        unit: 's',
        value: platform.ms / 1000,
        note: appsOnly(platform),
        // embedded only: a distributed start waits for Kafka and a process per app
        target: opts.distributed ? undefined : { atMost: 5 },
      },
      { probe: 'P6', metric: 'idle RSS, node processes', unit: 'MB', value: idleRss },
      ...(rssUnderLoad === undefined
        ? []
        : [{ probe: 'P6', metric: 'RSS under P2 load', unit: 'MB', value: rssUnderLoad }]),
    ]);
    log(
      `database pools, most connections busy at once: ${formatPoolPeaks(await readPools(platform.env, opts.distributed))}`,
    );
  } finally {
    await stopReceivers();
    await db.end();
  }
  const cpuAfter: CpuCalibration = calibrateCpu();
  log(formatCalibration('machine speed after the probes (platform idle)', cpuAfter));

  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  const table = formatTable(rows, !opts.smoke);
  const speed = `${cpuBefore.bestMs.toFixed(0)} / ${cpuAfter.bestMs.toFixed(0)} ms per ${cpuBefore.hashes.toLocaleString('en-US')} sha256`;
  process.stdout.write(
    `\nbench (${mode}${opts.smoke ? ', smoke' : ''}), load average ${load}, machine speed before / after ${speed}\n${table}\n${opts.smoke ? 'targets: not judged in a smoke run' : formatTargets(rows)}\n`,
  );
  if (counted.length)
    process.stdout.write(
      `\nPostgres statements and CPU of the platform process:\n${formatWindows(counted)}\n`,
    );
  const file = join(resultsDir, `${new Date(started).toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        startedAt: new Date(started).toISOString(),
        mode,
        smoke: opts.smoke,
        loadavg: loadavg(),
        cpuCalibration: { before: cpuBefore, after: cpuAfter },
        rows,
        statementCounts: opts.countStatements ? counted : undefined,
        p2: p2Detail,
        failed,
      },
      null,
      2,
    ),
  );
  log(`results in ${file}`);
  if (failed.length) process.stderr.write(`failed probes:\n${failed.map((f) => `  - ${f}`).join('\n')}\n`);
  return failed.length ? 1 : 0;
}

// The launch time minus the slowest server start: what the apps themselves took.
function appsOnly(platform: HostReady): string {
  const servers = Math.max(0, ...platform.report.map((r) => r.ms));
  return `apps ${((platform.ms - servers) / 1000).toFixed(1)} s after the slowest server (${servers} ms)`;
}

const hostRef: { current?: Child<HostReady> } = {};
const stopHost = async (): Promise<void> => {
  await hostRef.current?.stop().catch((err: unknown) => log(`stop: ${String(err)}`));
};
process.on('SIGINT', () => void stopHost().then(() => process.exit(130)));
let parsed: BenchOptions;
try {
  parsed = parseBenchOptions(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
main(parsed, hostRef).then(
  async (code) => {
    await stopHost();
    process.exit(code);
  },
  async (err: unknown) => {
    process.stderr.write(`bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    await stopHost();
    process.exit(2);
  },
);
