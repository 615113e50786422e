import { ratioOf, Row, Target, targetMet } from './bench-context';

const fmt = (v: number | undefined): string =>
  v === undefined || !Number.isFinite(v)
    ? '-'
    : v >= 100
      ? v.toFixed(0)
      : v >= 10
        ? v.toFixed(1)
        : v.toFixed(2);

function describeTarget(target: Target, unit: string): string {
  if ('ratioAtLeast' in target) return `>= x${target.ratioAtLeast}`;
  if ('ratioAtMost' in target) return `<= x${target.ratioAtMost}`;
  if ('overBaselineAtMost' in target) return `<= baseline + ${target.overBaselineAtMost} ${unit}`;
  return `<= ${target.atMost} ${unit}`;
}

function targetCell(row: Row, judged: boolean): string {
  if (!row.target) return '';
  if (!judged) return describeTarget(row.target, row.unit);
  const met = targetMet(row);
  return `${describeTarget(row.target, row.unit)}: ${met === undefined ? '?' : met ? 'met' : 'missed'}`;
}

// A plain-text table, one row per figure: the platform's value, its baseline, value / baseline
// (for throughput higher is better, for latency lower is better), and the figure's target if it has
// one, with whether this run met it (not `judged`: a smoke run's figures say nothing of it).
export function formatTable(rows: Row[], judged = true): string {
  const header = ['probe', 'metric', 'platform', 'baseline', 'ratio', 'target', 'baseline is', 'note'];
  const lines = rows.map((r) => {
    const ratio = ratioOf(r);
    return [
      r.probe,
      r.metric,
      `${fmt(r.value)} ${r.unit}`,
      r.baseline === undefined ? '-' : `${fmt(r.baseline)} ${r.unit}`,
      ratio === undefined ? '-' : `x${ratio >= 10 ? ratio.toFixed(0) : ratio.toFixed(2)}`,
      targetCell(r, judged),
      r.baselineLabel ?? '',
      r.note ?? '',
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...lines.map(line)].join('\n');
}

// One line under the table: how many of the run's targets it met, and which it missed.
export function formatTargets(rows: Row[]): string {
  const judged = rows.filter((r) => targetMet(r) !== undefined);
  if (judged.length === 0) return 'targets: none judged in this run';
  const missed = judged.filter((r) => targetMet(r) === false).map((r) => `${r.probe} ${r.metric}`);
  return `targets met: ${judged.length - missed.length} of ${judged.length}${missed.length ? ` (missed: ${missed.join('; ')})` : ''}`;
}
