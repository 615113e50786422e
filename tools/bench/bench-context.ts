import { Pool } from 'pg';

import { BenchOptions } from './bench-options';
import { HostReady } from './platform-host';
import { sleep } from './stats';
import { CountWindow } from './statement-count/windows';

export interface Row {
  probe: string;
  metric: string;
  unit: string;
  value: number;
  baseline?: number; // measured in the same run on the same servers
  baselineLabel?: string;
  higherIsBetter?: boolean; // decides how the ratio reads
  note?: string;
  target?: Target; // the performance issue's mark for this figure (docs/performance.md), if it has one
}

// A figure's mark: its ratio to the baseline, how far it may be over the baseline (in the row's unit:
// P2's floor + 100 ms), or the value itself.
export type Target =
  { ratioAtLeast: number } | { ratioAtMost: number } | { overBaselineAtMost: number } | { atMost: number };

export interface BenchContext {
  opts: BenchOptions;
  platform: HostReady;
  hostPid: number;
  db: Pool; // the platform's Postgres
  logDir: string;
  log(line: string): void;
  // Distributed mode only: a further process of an app (its own instance name and settings).
  startApp(name: 'chain-settlement', instance: string, env: Record<string, string>): Promise<void>;
  // `--count-statements`: opens a window on the platform's Postgres statements and CPU time; its
  // `end(n)` records them per `operation` (n of them in the window). Without the flag it does nothing.
  countWindow(probe: string, label: string, operation: string): Promise<CountWindow>;
  // Sizes of the run: the full figures, or tiny ones under --smoke.
  size(full: number, smoke: number): number;
}

// Waits until the platform has nothing left to do: no unpublished outbox row in any schema and no
// new inbox row for a second, so one probe's tail does not slow the next one down.
// Waits until the platform is idle: no outbox row unpublished, no inbox row being added, and no
// payout or webhook left over from an earlier probe (settlements not yet final, deliveries due within
// a lease), so one probe's tail does not slow the next. False when it gave up waiting.
export async function waitQuiet(ctx: BenchContext, timeoutMs = 120_000): Promise<boolean> {
  const schemas = (
    await ctx.db.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'outbox'`,
    )
  ).rows.map((r) => r.s);
  const tables = new Set(
    (
      await ctx.db.query<{ t: string }>(
        `SELECT table_schema || '.' || table_name AS t FROM information_schema.tables
         WHERE (table_schema, table_name) IN (('settlement', 'settlements'), ('webhooks', 'deliveries'))`,
      )
    ).rows.map((r) => r.t),
  );
  const queues = [
    ...(tables.has('settlement.settlements')
      ? [
          `SELECT count(*) AS n FROM settlement.settlements
           WHERE state IN ('SIGNED', 'BROADCAST') OR (state = 'PENDING' AND next_attempt_at <= now())`,
        ]
      : []),
    ...(tables.has('webhooks.deliveries')
      ? [
          `SELECT count(*) AS n FROM webhooks.deliveries
           WHERE status = 'PENDING' AND next_attempt_at <= now() + interval '30 seconds'`,
        ]
      : []),
  ];
  const count = async (): Promise<{ pending: number; handled: number; queued: number }> => {
    const q = schemas
      .map(
        (s) => `SELECT (SELECT count(*) FROM "${s}".outbox) AS p, (SELECT count(*) FROM "${s}".inbox) AS h`, // the relay deletes what it published
      )
      .join(' UNION ALL ');
    const { rows } = await ctx.db.query<{ p: string; h: string }>(q);
    let queued = 0;
    for (const sql of queues) queued += Number((await ctx.db.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
    return rows.reduce(
      (a, r) => ({ ...a, pending: a.pending + Number(r.p), handled: a.handled + Number(r.h) }),
      {
        pending: 0,
        handled: 0,
        queued,
      },
    );
  };
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stableSince = Date.now();
  let left = { pending: 0, queued: 0 };
  while (Date.now() < deadline) {
    const { pending, handled, queued } = await count();
    left = { pending, queued };
    if (handled !== last) {
      last = handled;
      stableSince = Date.now();
    } else if (pending === 0 && queued === 0 && Date.now() - stableSince >= 1000) return true;
    await sleep(200);
  }
  ctx.log(
    `the platform did not quiesce in time (${left.pending} events unpublished, ${left.queued} payouts or webhooks waiting); going on`,
  );
  return false;
}

// After a probe that churned through thousands of rows, Postgres still owes work the queues do not
// show: autovacuum and autoanalyze of every table the probe updated, and a checkpoint flushing what it
// wrote. Started during the next probe, that work competes with it for the 2 cores (it made P4's
// first figure 3-6x lower than the same measurement a few seconds later). Done here, up front:
// VACUUM (ANALYZE) of the whole database, waiting out autovacuum workers already running, then a
// CHECKPOINT. Returns how long it took, or a reason if part of it could not be done.
export async function settleDatabase(ctx: BenchContext, timeoutMs = 120_000): Promise<string> {
  const t0 = Date.now();
  try {
    await ctx.db.query('VACUUM (ANALYZE)');
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const { rows } = await ctx.db.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`,
      );
      if (Number(rows[0]?.n ?? 0) === 0) break;
      await sleep(200);
    }
    await ctx.db.query('CHECKPOINT');
  } catch (err) {
    return `database not settled: ${err instanceof Error ? err.message : String(err)}`;
  }
  return `database settled in ${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

export const ratioOf = (row: Row): number | undefined =>
  row.baseline === undefined || row.baseline === 0 || !Number.isFinite(row.value)
    ? undefined
    : row.value / row.baseline;

// Whether the row meets its target: undefined without a target or without the figures it needs.
export function targetMet(row: Row): boolean | undefined {
  const t = row.target;
  if (!t || !Number.isFinite(row.value)) return undefined;
  if ('atMost' in t) return row.value <= t.atMost;
  if ('overBaselineAtMost' in t)
    return row.baseline === undefined ? undefined : row.value <= row.baseline + t.overBaselineAtMost;
  const ratio = ratioOf(row);
  if (ratio === undefined) return undefined;
  return 'ratioAtLeast' in t ? ratio >= t.ratioAtLeast : ratio <= t.ratioAtMost;
}
