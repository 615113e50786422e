import { ratioOf, Row } from './bench-context';

const fmt = (v: number | undefined): string =>
  v === undefined || !Number.isFinite(v)
    ? '-'
    : v >= 100
      ? v.toFixed(0)
      : v >= 10
        ? v.toFixed(1)
        : v.toFixed(2);

// A plain-text table, one row per figure: the platform's value, its baseline, and value / baseline
// (for throughput higher is better, for latency lower is better).
export function formatTable(rows: Row[]): string {
  const header = ['probe', 'metric', 'platform', 'baseline', 'ratio', 'baseline is', 'note'];
  const lines = rows.map((r) => {
    const ratio = ratioOf(r);
    return [
      r.probe,
      r.metric,
      `${fmt(r.value)} ${r.unit}`,
      r.baseline === undefined ? '-' : `${fmt(r.baseline)} ${r.unit}`,
      ratio === undefined ? '-' : `x${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2)}`,
      r.baselineLabel ?? '',
      r.note ?? '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}
