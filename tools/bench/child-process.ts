import { ChildProcess, fork } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { findRepoRoot } from '@onramp/platform-infra';

export interface Child<T> {
  proc: ChildProcess;
  ready: T;
  // Sends a request carrying a fresh `id` and resolves with the child's reply of the same id.
  call<R extends { id: number }>(
    request: { type: string } & Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<R>;
  stop(): Promise<void>;
}

// Forks a TypeScript script of tools/bench with an IPC channel, its output to `logFile`, and waits
// for its first message (the `ready` it sends). `execArgv` adds node flags (e.g. --cpu-prof);
// `requires`: TypeScript modules of the repo to load first (after the TypeScript hook).
export async function forkScript<T>(
  script: string,
  args: string[],
  opts: {
    logFile: string;
    env?: NodeJS.ProcessEnv;
    execArgv?: string[];
    requires?: string[];
    timeoutMs?: number;
  },
): Promise<Child<T>> {
  const root = findRepoRoot();
  const log = createWriteStream(opts.logFile, { flags: 'a' });
  const proc = fork(join(root, 'tools', 'bench', script), args, {
    cwd: root,
    env: { ...process.env, ...opts.env, SWC_NODE_PROJECT: join(root, 'tsconfig.json') },
    execArgv: [
      ...(opts.execArgv ?? []),
      '-r',
      '@swc-node/register',
      ...(opts.requires ?? []).flatMap((r) => ['-r', join(root, r)]),
    ],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  proc.stdout?.pipe(log, { end: false });
  proc.stderr?.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const ready = await new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script}: not ready in time (log: ${opts.logFile})`)),
      opts.timeoutMs ?? 300_000,
    );
    proc.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as T);
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it was ready; log: ${opts.logFile}`));
    });
  });
  const stop = async (): Promise<void> => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    if (proc.connected) proc.send({ type: 'stop' });
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
    await exited;
    clearTimeout(timer);
    log.end();
  };
  let nextId = 0;
  const call = <R extends { id: number }>(
    request: { type: string } & Record<string, unknown>,
    timeoutMs = 180_000,
  ): Promise<R> =>
    new Promise<R>((resolve, reject) => {
      const id = ++nextId;
      const onMessage = (m: unknown): void => {
        if ((m as { id?: number }).id !== id) return;
        done();
        resolve(m as R);
      };
      const onExit = (): void => {
        done();
        reject(new Error(`${script} exited while answering ${request.type}`));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${script}: no answer to ${request.type} in time`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        proc.off('message', onMessage);
        proc.off('exit', onExit);
      };
      proc.on('message', onMessage);
      proc.once('exit', onExit);
      proc.send({ ...request, id });
    });
  return { proc, ready, call, stop };
}

// Resident memory of a process and its descendants (the distributed platform is a tree), in MB;
// with `comm`, only processes of that name (`node`: the apps, not Postgres, anvil or Kafka).
export function treeRssMb(rootPid: number, comm?: string): number {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      if (!comm || name === comm) rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // gone meanwhile
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p && p > 1; p = parents.get(p)) if (p === rootPid) return true;
    return false;
  };
  let bytes = 0;
  for (const [pid, b] of rss) if (inTree(pid)) bytes += b;
  return bytes / 1024 / 1024;
}
