import { CounterSnapshot, diffSnapshots, StatementCount } from './counter';

// One probe's window under `--count-statements`: what the platform process sent to Postgres and
// spent in CPU between its start and end, per operation of the probe.
export interface WindowReport {
  probe: string;
  label: string;
  operation: string; // "order", "payout", "delivery", "event", "second"
  operations: number;
  statements: number;
  statementsPerOperation: number;
  cpuMs: number;
  cpuMsPerOperation: number;
  perPool: Record<string, number>; // statements per operation by application_name, most first
  top: (StatementCount & { perOperation: number })[];
}

export interface CountWindow {
  end(operations: number): Promise<void>;
}

const TOP_IN_RESULTS = 100;

export function windowReport(
  w: { probe: string; label: string; operation: string; operations: number },
  start: CounterSnapshot,
  end: CounterSnapshot,
): WindowReport {
  const d = diffSnapshots(start, end);
  const per = (v: number): number => (w.operations > 0 ? v / w.operations : Number.NaN);
  return {
    ...w,
    statements: d.statements,
    statementsPerOperation: per(d.statements),
    cpuMs: d.cpuMs,
    cpuMsPerOperation: per(d.cpuMs),
    perPool: perPool(d.byText, per),
    top: d.byText.slice(0, TOP_IN_RESULTS).map((s) => ({ ...s, perOperation: per(s.count) })),
  };
}

function perPool(byText: StatementCount[], per: (v: number) => number): Record<string, number> {
  const totals = new Map<string, number>();
  for (const s of byText) totals.set(s.app, (totals.get(s.app) ?? 0) + s.count);
  return Object.fromEntries(
    [...totals].sort((a, b) => b[1] - a[1]).map(([app, n]) => [app, Number(per(n).toFixed(2))]),
  );
}

// The text printed after the bench's table: per window its totals and its `topN` statements.
export function formatWindows(reports: WindowReport[], topN = 12): string {
  const f = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
  return reports
    .map((r) => {
      const many = r.operation.endsWith('y') ? `${r.operation.slice(0, -1)}ies` : `${r.operation}s`;
      const head =
        `${r.probe} ${r.label}: ${r.operations} ${many}, ${r.statements} statements ` +
        `(${f(r.statementsPerOperation)} per ${r.operation}), CPU ${r.cpuMs.toFixed(0)} ms ` +
        `(${f(r.cpuMsPerOperation)} ms per ${r.operation})`;
      const per = `per ${r.operation}`;
      const lines = r.top
        .slice(0, topN)
        .map(
          (s) =>
            `  ${f(s.perOperation).padStart(per.length)} ${s.count.toString().padStart(7)}  ${s.app.replace(/^onramp-/, '').padEnd(12)} ${s.text.slice(0, 150)}`,
        );
      const pools = Object.entries(r.perPool)
        .map(([app, n]) => `${app.replace(/^onramp-/, '')} ${f(n)}`)
        .join(', ');
      return [head, `  by pool: ${pools}`, `  ${per}   count  pool         statement`, ...lines].join('\n');
    })
    .join('\n\n');
}
