import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const CHILD_FLAG = 'ONRAMP_LAUNCHER_CHILD';
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
// npm forwards the SIGINT it got from the terminal to us, so one Ctrl-C arrives twice: copies this
// close together are one request. A later one is a second Ctrl-C ("stop now").
const SAME_SIGNAL_MS = 1500;

// A Ctrl-C signals the terminal's whole foreground process group. Servers we start (embedded
// Postgres, anvil, Kafka, the apps in distributed mode) would get it too and die on their own, in no
// order, while the launcher waits on them. So the launcher re-runs itself as a child in a process
// group of its own, and this parent turns the terminal's signals into one orderly stop of that child.
//
// Returns 'platform' in the process that must run the platform, 'supervisor' in the parent (which
// exits with the child's exit code and must do nothing else).
export function runInOwnProcessGroup(): 'platform' | 'supervisor' {
  if (process.env[CHILD_FLAG] === '1' || process.platform === 'win32') {
    if (process.env[CHILD_FLAG] === '1') dieWithSupervisor();
    return 'platform';
  }
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    detached: true, // setsid: a new session and process group, away from the terminal's signals
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [CHILD_FLAG]: '1' },
  });
  let firstAt = 0;
  const forward = (signal: NodeJS.Signals): void => {
    const now = Date.now();
    if (firstAt !== 0 && now - firstAt < SAME_SIGNAL_MS) return;
    firstAt ||= now;
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  };
  for (const signal of FORWARDED) process.on(signal, () => forward(signal));
  child.on('exit', (code, signal) => {
    process.exit(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
  });
  child.on('error', (err) => {
    process.stderr.write(`[onramp] could not start the platform process: ${err.message}\n`);
    process.exit(1);
  });
  return 'supervisor';
}

// The supervisor gone without a word (kill -9, OOM) is a crash of `npm start`: crash the same way
// (the servers' orphan watchdogs stop them) rather than run on unseen in the background.
function dieWithSupervisor(): void {
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  process.channel?.unref();
}
