import { spawn } from 'node:child_process';

export interface OrphanGuardOptions {
  signal?: NodeJS.Signals; // the signal that shuts the process down cleanly
  graceSeconds?: number; // then SIGKILL
}

// Makes sure a server process we started does not outlive us:
// - a normal exit (including process.exit from a signal handler) signals it synchronously;
// - a detached watchdog signals it when we die without running exit handlers (SIGKILL, OOM).
// Returns a release function for the normal stop path.
export function guardAgainstOrphan(
  pid: number,
  { signal = 'SIGTERM', graceSeconds = 10 }: OrphanGuardOptions = {},
): () => void {
  const onExit = (): void => {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  };
  process.once('exit', onExit);

  const watchdog = spawn(
    'bash',
    [
      '-c',
      `while kill -0 "$1" 2>/dev/null && kill -0 "$2" 2>/dev/null; do sleep 1; done
       kill -0 "$2" 2>/dev/null || exit 0
       kill -"$3" "$2"
       for _ in $(seq 1 "$4"); do kill -0 "$2" 2>/dev/null || exit 0; sleep 1; done
       kill -KILL "$2"`,
      'onramp-orphan-guard',
      String(process.pid),
      String(pid),
      signal.replace(/^SIG/, ''),
      String(graceSeconds),
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();

  return () => {
    process.removeListener('exit', onExit);
    if (watchdog.exitCode === null) watchdog.kill('SIGKILL');
  };
}
