// Standalone local infrastructure: Postgres, Kafka and anvil with the test USDC, for running
// services by hand. Prints `export K=V` lines (eval-able) and stays up until SIGINT/SIGTERM.
//
//   node -r @swc-node/register tools/run/infra.ts [--data-dir .onramp] [--ephemeral]
//        [--no-postgres] [--no-kafka] [--no-chain]
import { resolve } from 'node:path';

import { findRepoRoot, loadInfraConfig, startInfra } from '@onramp/platform-infra';

interface Args {
  dataDir?: string;
  postgres: boolean;
  kafka: boolean;
  chain: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    dataDir: resolve(findRepoRoot(), '.onramp'),
    postgres: true,
    kafka: true,
    chain: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--data-dir') args.dataDir = resolve(argv[++i] ?? '.onramp');
    else if (arg === '--ephemeral') args.dataDir = undefined;
    else if (arg === '--no-postgres') args.postgres = false;
    else if (arg === '--no-kafka') args.kafka = false;
    else if (arg === '--no-chain') args.chain = false;
    else throw new Error(`unknown argument ${arg}`);
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const t0 = Date.now();
  // stderr for humans, stdout only for the exports, so `eval "$(... | head -n 7)"`-style use works
  process.stderr.write(
    `[infra] starting${args.dataDir ? ` (data in ${args.dataDir})` : ' (ephemeral)'}...\n`,
  );
  const infra = await startInfra(loadInfraConfig(process.env), args);
  for (const r of infra.report) process.stderr.write(`[infra] ${r.name}: ${r.source}, ${r.ms} ms\n`);
  process.stderr.write(`[infra] up in ${Date.now() - t0} ms; Ctrl-C to stop\n`);
  for (const [key, value] of Object.entries(infra.env))
    process.stdout.write(`export ${key}=${shellQuote(value)}\n`);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`[infra] ${signal}: stopping...\n`);
    infra.stop().then(
      () => {
        process.stderr.write('[infra] stopped\n');
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`[infra] ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  process.on('SIGHUP', shutdown);
  setInterval(() => undefined, 1 << 30); // keep the event loop alive until a signal
}

function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

main().catch((err: unknown) => {
  process.stderr.write(
    `[infra] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
