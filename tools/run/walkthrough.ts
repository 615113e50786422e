// `npm run walkthrough`: the README's curl walkthrough, extracted from README.md itself (the block
// between <!-- walkthrough:begin --> and <!-- walkthrough:end -->, so the two cannot drift), run twice
// in a row against a fresh `npm start`, as a newcomer would on a first and a second day. Each run must
// print a verified webhook, end with the order COMPLETED and move the end user's USDC balance.
//
// Then the SDK package: packed, installed into ESM, CommonJS and TypeScript scratch projects, its
// README snippet run in each (tools/sdk/try-sdk-package.ts).
//
//   npm run walkthrough [-- --runs 2] [--no-sdk]   (ports: ONRAMP_PORT_OFFSET, CHAIN_RPC_PORT; default a free one)
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { trySdkPackage } from '../sdk/try-sdk-package';

const ROOT = join(__dirname, '..', '..');
const RUN_TIMEOUT_MS = 120_000;

export function extractWalkthrough(readme: string): string {
  const block = /<!-- walkthrough:begin -->\s*```bash\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block?.[1]) throw new Error('README.md has no <!-- walkthrough:begin --> ```bash ... ``` block');
  return block[1];
}

export interface Banner {
  base: string;
  kyc: string;
  rpc: string;
  usdc: string;
  merchantId: string;
  merchantSecret: string;
}

export function parseBanner(output: string): Banner {
  const field = (label: string): string => {
    const match = new RegExp(`${label}:?\\s+(\\S+)`).exec(output);
    if (!match?.[1]) throw new Error(`no "${label}" in the banner:\n${output}`);
    return match[1];
  };
  return {
    base: field('Orders API \\(base url\\)'),
    kyc: field('KYC API \\(kyc url\\)'),
    rpc: field('Chain RPC'),
    usdc: field('USDC token'),
    merchantId: field('Demo merchant id'),
    merchantSecret: field('Demo merchant secret'),
  };
}

// What a reader types by hand: the values npm start printed, and the ports of this run.
function fillIn(script: string, banner: Banner, hookPort: number): string {
  const replacements: Array<[string, string]> = [
    ['http://127.0.0.1:3000', banner.base],
    ['http://127.0.0.1:3001', banner.kyc],
    ['http://127.0.0.1:8545', banner.rpc],
    ['HOOK_PORT=9999', `HOOK_PORT=${hookPort}`],
    ['<demo merchant id>', banner.merchantId],
    ['<demo merchant secret>', banner.merchantSecret],
    ['<USDC token>', banner.usdc],
  ];
  return replacements.reduce((text, [from, to]) => {
    if (!text.includes(from)) throw new Error(`the walkthrough no longer contains "${from}"`);
    return text.split(from).join(to);
  }, script);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPlatform(dataDir: string): Promise<{ child: ChildProcess; banner: Banner }> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true, // a process group of its own, stopped below as Ctrl-C would
    env: {
      ...process.env,
      ONRAMP_DATA_DIR: dataDir,
      CHAIN_RPC_PORT: process.env.CHAIN_RPC_PORT ?? String(await freePort()),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (c: Buffer) => (output += c.toString()));
  const deadline = Date.now() + 180_000;
  while (!output.includes('Press Ctrl-C')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, banner: parseBanner(output) };
}

function check(run: number, output: string): string[] {
  const problems: string[] = [];
  if (!/signature OK \{"event":"order\.completed"/.test(output))
    problems.push('no verified order.completed webhook');
  if (output.includes('BAD SIGNATURE')) problems.push('a webhook with a bad signature');
  if (!/"orderStatus":"COMPLETED"/.test(output)) problems.push('the order is not COMPLETED');
  const balance = (label: string) => /(\d+\.\d{6}) USDC/.exec(output.split(label)[1] ?? '')?.[1];
  const before = balance('wallet before:');
  const after = balance('wallet after:');
  if (!before || !after) problems.push('no USDC balance printed');
  else if (toUnits(after) <= toUnits(before))
    problems.push(`the wallet did not receive USDC (${before} -> ${after})`);
  else process.stdout.write(`[walkthrough] run ${run}: wallet ${before} -> ${after} USDC\n`);
  return problems;
}

const toUnits = (usdc: string): bigint => BigInt(usdc.replace('.', ''));

async function main(): Promise<void> {
  const runsArg = process.argv.indexOf('--runs');
  const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 2;
  const script = extractWalkthrough(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const dataDir = mkdtempSync(join(tmpdir(), 'onramp-walkthrough-'));
  chmodSync(dataDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster
  const { child, banner } = await startPlatform(dataDir);
  let failed = false;
  try {
    for (let run = 1; run <= runs; run++) {
      const t0 = Date.now();
      const filled = `${fillIn(script, banner, await freePort())}\necho "shell user: $USER"\n`;
      const result = spawnSync('bash', ['-c', filled], {
        cwd: tmpdir(),
        encoding: 'utf8',
        timeout: RUN_TIMEOUT_MS,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, USER: 'walkthrough-user' },
      });
      const output = `${result.stdout}${result.stderr}`;
      const problems =
        result.status === 0 ? check(run, output) : [`bash exited ${result.status ?? result.signal}`];
      // $USER is the shell's: the walkthrough must leave it alone
      if (!output.includes('shell user: walkthrough-user')) problems.push('the walkthrough changed $USER');
      process.stdout.write(
        `[walkthrough] run ${run}: ${Date.now() - t0} ms, ${problems.length ? 'FAILED' : 'ok'}\n`,
      );
      if (problems.length) {
        failed = true;
        process.stdout.write(`${problems.map((p) => `  - ${p}`).join('\n')}\n--- output ---\n${output}\n`);
        break;
      }
    }
    // then the SDK as a merchant installs it, its README snippet run against the same platform
    if (!failed && !process.argv.includes('--no-sdk')) {
      const target = {
        base: banner.base,
        kyc: banner.kyc,
        merchantId: banner.merchantId,
        merchantSecret: banner.merchantSecret,
      };
      trySdkPackage(target, (line) => process.stdout.write(`[sdk] ${line}\n`));
    }
  } finally {
    process.kill(-(child.pid as number), 'SIGINT');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(failed ? 1 : 0);
}

if (require.main === module)
  main().catch((err: unknown) => {
    process.stderr.write(`[walkthrough] ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
