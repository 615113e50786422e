import { ChildProcess, execFileSync, spawn } from 'node:child_process';

import { findRepoRoot } from '@onramp/platform-infra';

export interface NpmStartOptions {
  script: 'start' | 'start:distributed';
  dataDir: string;
  portOffset: number;
  chainPort: number;
  env?: Record<string, string>;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number; // since the signal was sent (or since the start, without one)
}

// `npm start` as typed in a terminal: npm, its shell and the launcher in a fresh process group that
// stands for the terminal's foreground group, so a signal to the group is what Ctrl-C sends.
// The environment is built from scratch: nothing of the test runner's own platform leaks in.
export class NpmStart {
  private readonly child: ChildProcess;
  private output = '';
  private readonly exited: Promise<Exit>;
  private signalledAt = Date.now(); // exit times count from here: the spawn, then the last signal

  constructor(opts: NpmStartOptions) {
    this.child = spawn('npm', ['run', opts.script, '--silent'], {
      cwd: findRepoRoot(),
      detached: true,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TZ: 'UTC',
        ONRAMP_DATA_DIR: opts.dataDir,
        ONRAMP_DOCKER: '0',
        ONRAMP_PORT_OFFSET: String(opts.portOffset),
        CHAIN_RPC_PORT: String(opts.chainPort),
        ...(opts.env ?? {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    }
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal, ms: Date.now() - this.signalledAt })),
    );
  }

  log(): string {
    return this.output;
  }

  async ready(timeoutMs = 180_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let gone = false;
    void this.exited.then(() => (gone = true));
    while (!this.output.includes('Press Ctrl-C')) {
      if (gone || Date.now() > deadline) throw new Error(`npm start did not come up:\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  // Ctrl-C: the signal goes to every process of the terminal's foreground group.
  signalGroup(signal: NodeJS.Signals): void {
    this.signalledAt = Date.now();
    process.kill(-(this.child.pid as number), signal);
  }

  // Resolves with the exit, or undefined if it took longer than timeoutMs.
  async exit(timeoutMs: number): Promise<Exit | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => resolve(undefined), timeoutMs)),
    );
    const result = await Promise.race([this.exited, timeout]);
    clearTimeout(timer);
    return result;
  }

  // Test cleanup: whatever is left of the group, and the servers that left it.
  async kill(): Promise<void> {
    try {
      process.kill(-(this.child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exit(10_000);
  }
}

// Processes whose command line names the directory (Postgres -D <dir>, anvil --state <dir>/..., Kafka).
export function processesUsing(dir: string): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dir) && !line.includes('ps -eo'));
}

export async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
