import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const RUNS_ROOT = join(tmpdir(), 'onramp-runs');

// A throw-away directory for one run's servers, named after our pid so the next run can sweep
// what a crashed run left behind. World-traversable because Postgres runs as the postgres user.
export function makeRunDir(label: string): string {
  mkdirSync(RUNS_ROOT, { recursive: true, mode: 0o755 });
  sweepStaleRunDirs();
  const dir = mkdtempSync(join(RUNS_ROOT, `${process.pid}-${label}-`));
  chmodSync(dir, 0o755);
  return dir;
}

export function removeRunDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

function sweepStaleRunDirs(): void {
  for (const name of readdirSync(RUNS_ROOT)) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(join(RUNS_ROOT, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function findRepoRoot(from = __dirname): string {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
  }
  throw new Error(`no nx.json above ${from}: cannot locate the repository root`);
}
