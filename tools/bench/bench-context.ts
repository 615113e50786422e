import { Pool } from 'pg';

import { BenchOptions } from './bench-options';
import { HostReady } from './platform-host';
import { sleep } from './stats';

export interface Row {
  probe: string;
  metric: string;
  unit: string;
  value: number;
  baseline?: number; // measured in the same run on the same servers
  baselineLabel?: string;
  higherIsBetter?: boolean; // decides how the ratio reads
  note?: string;
}

export interface BenchContext {
  opts: BenchOptions;
  platform: HostReady;
  hostPid: number;
  db: Pool; // the platform's Postgres
  logDir: string;
  log(line: string): void;
  // Sizes of the run: the full figures, or tiny ones under --smoke.
  size(full: number, smoke: number): number;
}

// Waits until the platform has nothing left to do: no unpublished outbox row in any schema and no
// new inbox row for a second, so one probe's tail does not slow the next one down.
export async function waitQuiet(ctx: BenchContext, timeoutMs = 120_000): Promise<void> {
  const schemas = (
    await ctx.db.query<{ s: string }>(
      `SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'outbox'`,
    )
  ).rows.map((r) => r.s);
  const count = async (): Promise<{ pending: number; handled: number }> => {
    const q = schemas
      .map(
        (s) =>
          `SELECT (SELECT count(*) FROM "${s}".outbox WHERE published_at IS NULL) AS p, (SELECT count(*) FROM "${s}".inbox) AS h`,
      )
      .join(' UNION ALL ');
    const { rows } = await ctx.db.query<{ p: string; h: string }>(q);
    return rows.reduce((a, r) => ({ pending: a.pending + Number(r.p), handled: a.handled + Number(r.h) }), {
      pending: 0,
      handled: 0,
    });
  };
  const deadline = Date.now() + timeoutMs;
  let last = -1;
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    const { pending, handled } = await count();
    if (handled !== last) {
      last = handled;
      stableSince = Date.now();
    } else if (pending === 0 && Date.now() - stableSince >= 1000) return;
    await sleep(200);
  }
  ctx.log('the platform did not quiesce in time; going on');
}

export const ratioOf = (row: Row): number | undefined =>
  row.baseline === undefined || row.baseline === 0 || !Number.isFinite(row.value)
    ? undefined
    : row.value / row.baseline;
