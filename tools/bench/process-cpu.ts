import { readdirSync, readFileSync } from 'node:fs';

// CPU time of the platform's processes over a window, by role: each app process (distributed mode:
// one per app), the platform host, Postgres (all its backends), Kafka and anvil. Read from /proc
// (Linux), so it says whether a probe was bound by the machine's cores or by waiting. Processes of
// the platform are the host's process tree, plus the servers that detach from it but run from the
// host's run directories (`/tmp/onramp-runs/<host pid>-...`, the local Kafka broker).
export type CpuSnapshot = { at: number; ticks: Map<string, number> };

const TICKS_PER_S = 100; // USER_HZ: 100 on every Linux the bench runs on

function role(cmdline: string, comm: string): string {
  const app = /apps\/([a-z-]+)\/(?:src\/)?main/.exec(cmdline);
  if (app) return app[1];
  if (cmdline.includes('platform-host')) return 'platform host';
  if (comm === 'postgres' || cmdline.includes('/bin/postgres')) return 'postgres';
  if (comm === 'java' || cmdline.includes('kafka')) return 'kafka';
  if (comm === 'anvil' || cmdline.includes('anvil')) return 'anvil';
  return comm;
}

// `extra`: processes outside the platform to count too, by the role to report them under (the
// bench's own process, with the merchants' receivers; a load tool).
export function cpuSnapshot(hostPid: number, extra: Record<string, number> = {}): CpuSnapshot {
  const parents = new Map<number, number>();
  const info = new Map<number, { ticks: number; cmdline: string; comm: string }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      parents.set(Number(entry), Number(fields[1]));
      // utime + stime (fields 14 and 15 of stat, 0-based 11 and 12 after the command)
      info.set(Number(entry), { ticks: Number(fields[11]) + Number(fields[12]), cmdline, comm });
    } catch {
      // the process ended while being read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parents.get(p) ?? 0, hops++) {
      if (p === hostPid) return true;
    }
    return false;
  };
  const ticks = new Map<string, number>();
  const extraRoles = new Map(Object.entries(extra).map(([r, pid]) => [pid, r]));
  for (const [pid, p] of info) {
    const r =
      extraRoles.get(pid) ??
      (inTree(pid) || p.cmdline.includes(`onramp-runs/${hostPid}-`) ? role(p.cmdline, p.comm) : undefined);
    if (r !== undefined) ticks.set(r, (ticks.get(r) ?? 0) + p.ticks);
  }
  return { at: Date.now(), ticks };
}

// Share of one core each role used between two snapshots (100 % = one core busy), busiest first.
// Processes that ended inside the window are missing from the second snapshot, so a role can only
// be under-counted (Postgres backends that closed), never over.
export function cpuShares(before: CpuSnapshot, after: CpuSnapshot): Array<{ role: string; percent: number }> {
  const seconds = (after.at - before.at) / 1000;
  return [...after.ticks.entries()]
    .map(([r, t]) => ({
      role: r,
      percent: (100 * Math.max(0, t - (before.ticks.get(r) ?? 0))) / TICKS_PER_S / seconds,
    }))
    .sort((a, b) => b.percent - a.percent);
}

// Milliseconds of CPU each role used per item (a delivery, a request) between two snapshots, busiest
// first; roles under 0.005 ms are left out.
export function formatCpuPerItem(before: CpuSnapshot, after: CpuSnapshot, items: number): string {
  const perItem = [...after.ticks.entries()]
    .map(([r, t]) => ({ role: r, ms: ((t - (before.ticks.get(r) ?? 0)) * (1000 / TICKS_PER_S)) / items }))
    .filter((x) => x.ms >= 0.005)
    .sort((a, b) => b.ms - a.ms);
  const total = perItem.reduce((a, x) => a + x.ms, 0);
  return [...perItem.map((x) => `${x.role} ${x.ms.toFixed(2)}`), `total ${total.toFixed(2)} ms`].join(', ');
}

export function formatCpu(shares: Array<{ role: string; percent: number }>): string {
  const total = shares.reduce((a, s) => a + s.percent, 0);
  return [
    ...shares.map((s) => `${s.role} ${s.percent.toFixed(0)} %`),
    `total ${total.toFixed(0)} % (of 200 %)`,
  ].join(', ');
}
