import { readdirSync, readFileSync } from 'node:fs';

// CPU time of the platform's processes over a window, by role: each app process (distributed mode:
// one per app), the platform host, Postgres (all its backends), Kafka and anvil. Read from /proc
// (Linux), so it says whether a probe was bound by the machine's cores or by waiting. Processes of
// the platform are the host's process tree, plus the servers that detach from it but run from the
// host's run directories (`/tmp/onramp-runs/<host pid>-...`, the local Kafka broker).
// Ticks by process, with the role each was counted under: a window's CPU is the sum of each
// process's own delta, so a process that exited inside it (a pool closing an idle Postgres backend)
// takes none of the others' time out of its role's total.
export type CpuSnapshot = { at: number; processes: Map<number, { role: string; ticks: number }> };

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
  const processes = new Map<number, { role: string; ticks: number }>();
  const extraRoles = new Map(Object.entries(extra).map(([r, pid]) => [pid, r]));
  for (const [pid, p] of info) {
    const r =
      extraRoles.get(pid) ??
      (inTree(pid) || p.cmdline.includes(`onramp-runs/${hostPid}-`) ? role(p.cmdline, p.comm) : undefined);
    if (r !== undefined) processes.set(pid, { role: r, ticks: p.ticks });
  }
  return { at: Date.now(), processes };
}

// Ticks each role used between two snapshots: every process's own delta (a process started inside
// the window counts whole), summed by role.
function roleTicks(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const ticks = new Map<string, number>();
  for (const [pid, p] of after.processes) {
    const earlier = before.processes.get(pid);
    const used = p.ticks - (earlier?.role === p.role ? earlier.ticks : 0);
    ticks.set(p.role, (ticks.get(p.role) ?? 0) + Math.max(0, used));
  }
  return ticks;
}

// Share of one core each role used between two snapshots (100 % = one core busy), busiest first.
// Processes that ended inside the window are missing from the second snapshot, so a role can only
// be under-counted (Postgres backends that closed, by what they used inside the window), never over.
export function cpuShares(before: CpuSnapshot, after: CpuSnapshot): Array<{ role: string; percent: number }> {
  const seconds = (after.at - before.at) / 1000;
  return [...roleTicks(before, after).entries()]
    .map(([r, t]) => ({ role: r, percent: (100 * t) / TICKS_PER_S / seconds }))
    .sort((a, b) => b.percent - a.percent);
}

// Milliseconds of CPU each role used per item (a delivery, a request) between two snapshots, busiest
// first; roles under 0.005 ms are left out.
export function formatCpuPerItem(before: CpuSnapshot, after: CpuSnapshot, items: number): string {
  const tally = new CpuTally();
  tally.add(before, after);
  return tally.perItem(items);
}

// CPU by role summed over several windows (a probe's slices, with other work between them), told
// per item as formatCpuPerItem does.
export class CpuTally {
  private readonly ticks = new Map<string, number>();

  add(before: CpuSnapshot, after: CpuSnapshot): void {
    for (const [r, t] of roleTicks(before, after)) this.ticks.set(r, (this.ticks.get(r) ?? 0) + t);
  }

  perItem(items: number): string {
    const perItem = [...this.ticks.entries()]
      .map(([r, t]) => ({ role: r, ms: (t * (1000 / TICKS_PER_S)) / items }))
      .filter((x) => x.ms >= 0.005)
      .sort((a, b) => b.ms - a.ms);
    const total = perItem.reduce((a, x) => a + x.ms, 0);
    return [...perItem.map((x) => `${x.role} ${x.ms.toFixed(2)}`), `total ${total.toFixed(2)} ms`].join(', ');
  }
}

export function formatCpu(shares: Array<{ role: string; percent: number }>): string {
  const total = shares.reduce((a, s) => a + s.percent, 0);
  return [
    ...shares.map((s) => `${s.role} ${s.percent.toFixed(0)} %`),
    `total ${total.toFixed(0)} % (of 200 %)`,
  ].join(', ');
}

// The whole machine's busy time (every process, the bench's own included), from /proc/stat's first
// line: whether a window left any core idle at all.
export type MachineSnapshot = { total: number; idle: number };

export function machineSnapshot(): MachineSnapshot {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const jiffies = fields.map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already inside user)
  const total = jiffies.slice(0, 8).reduce((a, x) => a + x, 0);
  return { total, idle: (jiffies[3] ?? 0) + (jiffies[4] ?? 0) };
}

// Share of the machine's cores that were busy between two snapshots, in per cent.
export function machineBusy(before: MachineSnapshot, after: MachineSnapshot): number {
  const total = after.total - before.total;
  return total > 0 ? (100 * (total - (after.idle - before.idle))) / total : 0;
}
