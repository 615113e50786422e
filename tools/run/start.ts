// `npm start`: the local platform. Real Postgres (embedded), real Kafka (from Maven Central jars),
// anvil with the test USDC, and the seven apps each in its own process. State lives in .onramp/
// (`npm start -- --reset` wipes it). Ctrl-C stops everything.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { findRepoRoot } from '@onramp/testing';

import { launchPlatform } from '@onramp/platform-runner';

async function main(): Promise<void> {
  const args = new Set(process.argv.slice(2));
  const root = findRepoRoot();
  const dataDir = resolve(process.env.ONRAMP_DATA_DIR ?? join(root, '.onramp'));
  if (args.has('--reset')) {
    rmSync(dataDir, { recursive: true, force: true });
    process.stderr.write(`[onramp] wiped ${dataDir}\n`);
  }
  const t0 = Date.now();
  process.stderr.write(`[onramp] starting (data in ${dataDir}, logs in ${join(dataDir, 'logs')})...\n`);
  const platform = await launchPlatform({
    dataDir,
    logDir: join(dataDir, 'logs'),
    echo: args.has('--verbose'),
    chainPort: Number(process.env.CHAIN_RPC_PORT ?? 8545),
  });
  const s = platform.secrets;
  process.stdout.write(
    [
      '',
      `On-ramp platform ready in ${((Date.now() - t0) / 1000).toFixed(1)} s (sandbox mode)`,
      `  Orders API (base url):  ${platform.urls.base}`,
      `  KYC API (kyc url):      ${platform.urls.kyc}`,
      `  Admin API (loopback):   ${platform.urls.admin}   ADMIN_API_KEY=${s.ADMIN_API_KEY}`,
      `  Chain RPC:              ${platform.urls.rpc}   chain id ${platform.env.CHAIN_ID}`,
      `  USDC token:             ${platform.env.USDC_ADDRESS}`,
      `  Demo merchant id:       ${s.DEMO_MERCHANT_ID}`,
      `  Demo merchant secret:   ${s.DEMO_MERCHANT_SECRET}`,
      '',
      `  curl -s -X POST -u ${s.DEMO_MERCHANT_ID}:${s.DEMO_MERCHANT_SECRET} ${platform.urls.base}/auth/token`,
      '',
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
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
  setInterval(() => undefined, 1 << 30);
}

main().catch((err: unknown) => {
  process.stderr.write(`[onramp] failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
