// `npm start`: the local platform in ONE process: embedded Postgres, anvil with the test USDC, the
// seven apps side by side and the embedded (Postgres-backed) event transport. No Kafka, no Docker.
// `npm run start:distributed` (--distributed): the same apps each in its own process over real Kafka.
// Runs in the process group start.js made for it. State lives in .onramp/ (ONRAMP_DATA_DIR; `npm start -- --reset` wipes it). Ctrl-C stops everything.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { findRepoRoot } from '@onramp/platform-infra';

import {
  EMBEDDED_LOG_FILE,
  launchEmbedded,
  launchPlatform,
  loadRunnerConfig,
  PlatformHandle,
  waitForStaleServers,
} from '@onramp/platform-runner';

import { dieWithSupervisor } from './die-with-supervisor';

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const distributed = args.has('--distributed');
  const root = findRepoRoot();
  const dataDir = resolve(process.env.ONRAMP_DATA_DIR ?? join(root, '.onramp'));
  const logDir = join(dataDir, 'logs');
  if (args.has('--reset')) {
    await waitForStaleServers(dataDir); // never wipe a directory a live server still writes to
    rmSync(dataDir, { recursive: true, force: true });
    process.stderr.write(`[onramp] wiped ${dataDir}\n`);
  }
  const t0 = Date.now();
  const mode = distributed ? 'distributed: one process per app, Kafka' : 'embedded: one process';
  process.stderr.write(`[onramp] starting (${mode}; data in ${dataDir})...\n`);
  const launch = distributed ? launchPlatform : launchEmbedded;
  const platform = await launch({
    config: loadRunnerConfig(process.env),
    dataDir,
    logDir,
    echo: args.has('--verbose'),
    chainPort: Number(process.env.CHAIN_RPC_PORT ?? 8545),
    portOffset: Number(process.env.ONRAMP_PORT_OFFSET ?? 0), // moves every port but the chain's
  });
  printBanner(platform, {
    seconds: (Date.now() - t0) / 1000,
    mode: distributed ? 'distributed' : 'embedded',
    logs: distributed ? `${logDir}/<app>.log` : join(logDir, EMBEDDED_LOG_FILE),
  });

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) {
      process.stderr.write(`[onramp] ${signal} again: exiting now (the servers' watchdogs stop them)\n`);
      process.exit(130);
    }
    stopping = true;
    process.stderr.write(`\n[onramp] ${signal}: stopping...\n`);
    platform.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`[onramp] ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGHUP', () => shutdown('SIGHUP'));
  setInterval(() => undefined, 1 << 30);
}

function printBanner(platform: PlatformHandle, info: { seconds: number; mode: string; logs: string }): void {
  const s = platform.secrets;
  process.stdout.write(
    [
      '',
      `On-ramp platform ready in ${info.seconds.toFixed(1)} s (${platform.env.ONRAMP_MODE}, ${info.mode})`,
      `  Orders API (base url):  ${platform.urls.base}`,
      `  KYC API (kyc url):      ${platform.urls.kyc}`,
      `  Admin API (loopback):   ${platform.urls.admin}   ADMIN_API_KEY=${s.ADMIN_API_KEY}`,
      `  Chain RPC:              ${platform.urls.rpc}   chain id ${platform.env.CHAIN_ID}`,
      `  USDC token:             ${platform.env.USDC_ADDRESS}`,
      // the local dev cluster's password is no secret; ops tools (npm run reconcile) need this URL
      `  DATABASE_URL:           ${platform.env.DATABASE_URL}`,
      `  Demo merchant id:       ${s.DEMO_MERCHANT_ID}`,
      `  Demo merchant secret:   ${s.DEMO_MERCHANT_SECRET}`,
      `  Logs:                   ${info.logs}`,
      ...(platform.env.ONRAMP_MODE === 'production'
        ? [
            '',
            '  Production mode: no sandbox bank; KYC users wait for an operator decision; money enters',
            '  through bank statements (POST /admin/bank-statements, see docs/payments.md).',
            '  ADMIN_API_KEY only creates the first operator: npx onramp operators new <id> <scopes>.',
          ]
        : []),
      '',
      `  curl -s -X POST -u ${s.DEMO_MERCHANT_ID}:${s.DEMO_MERCHANT_SECRET} ${platform.urls.base}/auth/token`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
}

dieWithSupervisor(process.env);
main().catch((err: unknown) => {
  // the reason, not a stack trace (--verbose shows it): every launcher error names what to fix
  const detail =
    err instanceof Error ? (process.argv.includes('--verbose') ? err.stack : err.message) : String(err);
  process.stderr.write(`[onramp] failed to start: ${detail}\n`);
  process.exit(1);
});
