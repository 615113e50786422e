// The image's HEALTHCHECK: node dist/tools/healthcheck/main.js. One image runs every app, chosen by
// its command (node dist/apps/<app>/main.js), so this finds that command among the container's
// processes, takes the app's port from the same variable the app reads, and asks its readiness
// endpoint. A container running a one-shot step (migrate, kafka-topics) counts as healthy.
import { readdirSync, readFileSync } from 'node:fs';

import { defaultPorts } from '@onramp/config';

const PROBES: Record<string, { portVar: string; port: number; path: string }> = {
  gateway: { portVar: 'BASE_PORT', port: defaultPorts.base, path: '/health' },
  auth: { portVar: 'AUTH_PORT', port: defaultPorts.auth, path: '/health/ready' },
  kyc: { portVar: 'KYC_SERVICE_PORT', port: defaultPorts.kycService, path: '/health/ready' },
  orders: { portVar: 'ORDERS_PORT', port: defaultPorts.orders, path: '/health/ready' },
  'payment-ingest': {
    portVar: 'PAYMENT_INGEST_PORT',
    port: defaultPorts.paymentIngest,
    path: '/health/ready',
  },
  'chain-settlement': {
    portVar: 'CHAIN_SETTLEMENT_PORT',
    port: defaultPorts.chainSettlement,
    path: '/health/ready',
  },
  'webhook-dispatch': {
    portVar: 'WEBHOOK_DISPATCH_PORT',
    port: defaultPorts.webhookDispatch,
    path: '/health/ready',
  },
};

function runningApp(): string | undefined {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue; // the process ended meanwhile
    }
    const m = /dist\/apps\/([a-z-]+)\/main\.js/.exec(cmdline);
    if (m && m[1] && PROBES[m[1]]) return m[1];
  }
  return undefined;
}

async function main(): Promise<number> {
  const app = process.argv[2] ?? runningApp();
  if (!app) return 0;
  const probe = PROBES[app];
  if (!probe) throw new Error(`unknown app ${app}`);
  const port = Number(process.env[probe.portVar] || probe.port);
  const res = await fetch(`http://127.0.0.1:${port}${probe.path}`, { signal: AbortSignal.timeout(4000) });
  return res.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`unhealthy: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
