import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

import { findRepoRoot } from '@onramp/platform-infra';

export interface EmbeddedProcessOptions {
  dataDir: string;
  portOffset: number;
  chainPort: number;
  adminKey: string;
  env?: Record<string, string>; // e.g. ONRAMP_MODE=production and its collection account
}

export interface Banner {
  baseUrl: string;
  kycUrl: string;
  adminUrl: string;
  rpcUrl: string;
  usdcAddress: string;
  databaseUrl: string;
  readySeconds: number;
}

// `npm start` exactly as a developer runs it, as a child process we can SIGKILL. Its environment is
// built from scratch: the suite's own platform exported DATABASE_URL, RPC_URL, ports and secrets into
// ours, and `npm start` honours those.
export class EmbeddedProcess {
  private child?: ChildProcess;
  private output = '';

  constructor(private readonly opts: EmbeddedProcessOptions) {}

  async start(): Promise<Banner> {
    const root = findRepoRoot();
    const port = (base: number) => String(base + this.opts.portOffset);
    this.output = '';
    const child = spawn(process.execPath, [join(root, 'tools', 'run', 'start.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: 'UTC',
        SWC_NODE_PROJECT: join(root, 'tsconfig.json'),
        ONRAMP_DATA_DIR: this.opts.dataDir,
        ONRAMP_DOCKER: '0',
        ADMIN_API_KEY: this.opts.adminKey,
        CHAIN_RPC_PORT: String(this.opts.chainPort),
        BASE_PORT: port(3000),
        KYC_PORT: port(3001),
        ADMIN_PORT: port(3002),
        AUTH_PORT: port(3010),
        KYC_SERVICE_PORT: port(3011),
        ORDERS_PORT: port(3012),
        PAYMENT_INGEST_PORT: port(3013),
        CHAIN_SETTLEMENT_PORT: port(3014),
        WEBHOOK_DISPATCH_PORT: port(3015),
        ...(this.opts.env ?? {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    }
    const deadline = Date.now() + 90_000;
    while (!this.output.includes('Press Ctrl-C')) {
      if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
        throw new Error(`npm start did not come up:\n${this.output}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const field = (label: string): string => {
      const match = new RegExp(`${label}:?\\s+(\\S+)`).exec(this.output);
      if (!match) throw new Error(`no "${label}" in the banner:\n${this.output}`);
      return match[1];
    };
    return {
      baseUrl: field('Orders API \\(base url\\)'),
      kycUrl: field('KYC API \\(kyc url\\)'),
      adminUrl: field('Admin API \\(loopback\\)'),
      rpcUrl: field('Chain RPC'),
      usdcAddress: field('USDC token'),
      databaseUrl: field('DATABASE_URL'),
      readySeconds: Number(/ready in ([\d.]+) s/.exec(this.output)?.[1]),
    };
  }

  pid(): number {
    if (!this.child?.pid) throw new Error('not started');
    return this.child.pid;
  }

  // Resolves with the exit code (null when killed by a signal).
  async signal(signal: NodeJS.Signals): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  log(): string {
    return this.output;
  }
}

// Processes whose command line names the directory (Postgres -D <dir>, anvil --state <dir>/...).
export function processesUsing(dir: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir) && !line.includes('ps -eo'));
}
