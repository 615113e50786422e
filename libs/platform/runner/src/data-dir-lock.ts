import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'embedded.pid';
const STALE_WAIT_MS = 30_000;

// One embedded platform per data dir. A run killed with SIGKILL leaves its lock behind, and its
// Postgres and anvil are being stopped by their orphan watchdogs (anvil dumping its state as it
// goes): wait for them, so the restart opens the cluster and the chain state they wrote last.
export async function claimDataDir(dataDir: string): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  // As root, embedded Postgres runs as the postgres user, which must be able to reach its cluster
  // (a mktemp -d directory is 0700). The secrets file inside stays 0600.
  if (process.getuid?.() === 0) chmodSync(dataDir, 0o755);
  await waitForStaleServers(dataDir);
  const file = join(dataDir, LOCK_FILE);
  writeFileSync(file, String(process.pid));
  return () => {
    if (existsSync(file) && readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
  };
}

export async function waitForStaleServers(dataDir: string): Promise<void> {
  const lock = join(dataDir, LOCK_FILE);
  const previous = existsSync(lock) ? Number(readFileSync(lock, 'utf8').trim()) : undefined;
  if (previous && previous !== process.pid && isAlive(previous)) {
    throw new Error(`an embedded platform (pid ${previous}) is already running on ${dataDir}; stop it first`);
  }
  const servers = leftoverServers(dataDir);
  if (servers.length === 0) return;
  if (!previous) {
    const list = servers.map((s) => `${s.name} pid ${s.pid}`).join(', ');
    throw new Error(`${list} already running on ${dataDir} (npm run start:distributed?); stop it first`);
  }
  const deadline = Date.now() + STALE_WAIT_MS;
  process.stderr.write(`[onramp] waiting for the servers of the crashed run (pid ${previous}) to stop...\n`);
  while (Date.now() < deadline) {
    if (leftoverServers(dataDir).length === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  const left = leftoverServers(dataDir);
  throw new Error(
    `servers of a crashed run are still up: ${left.map((s) => `${s.name} pid ${s.pid}`).join(', ')}`,
  );
}

interface Server {
  name: string;
  pid: number;
}

function leftoverServers(dataDir: string): Server[] {
  const servers: Server[] = [];
  const postmaster = join(dataDir, 'postgres', 'postmaster.pid');
  if (existsSync(postmaster)) {
    const pid = Number(readFileSync(postmaster, 'utf8').split('\n')[0]);
    if (pid > 0 && isAlive(pid)) servers.push({ name: 'postgres', pid });
  }
  const stateFile = join(dataDir, 'chain', 'anvil-state.json');
  for (const pid of processesWithArg(stateFile)) servers.push({ name: 'anvil', pid });
  return servers;
}

function processesWithArg(arg: string): number[] {
  try {
    return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(` ${arg}`))
      .map((line) => Number(line.trim().split(/\s+/)[0]))
      .filter((pid) => pid > 0 && pid !== process.pid);
  } catch {
    return []; // no ps: anvil's port check at start reports a leftover instead
  }
}

// A SIGKILLed process stays a zombie until its parent reaps it; kill(pid, 0) still succeeds then.
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true; // no procfs (macOS): trust kill(0)
  }
}
