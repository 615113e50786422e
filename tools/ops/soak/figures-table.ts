import { KillRecord } from './app-killer';
import { SoakVerdict } from './soak-verdict';

export interface SoakTimings {
  startupMs: number; // platform launch and merchant setup
  driveMs: number; // first create until the last order left its slot
  settleMs: number; // killer stopped until quiescence
  totalMs: number;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

// The run in one table, for a human and for a log grep.
export function formatFigures(
  verdict: SoakVerdict,
  run: {
    planned: number;
    placed: number;
    kills: KillRecord[];
    latenciesMs: number[]; // create until webhook, of the orders whose webhook came in time
    retries: number;
    timings: SoakTimings;
  },
): string {
  const f = verdict.report.figures;
  const w = verdict.webhooks;
  const t = run.timings;
  const byApp = new Map<string, number>();
  for (const k of run.kills) byApp.set(k.app, (byApp.get(k.app) ?? 0) + 1);
  const meanDown = run.kills.length ? run.kills.reduce((s, k) => s + k.downMs, 0) / run.kills.length : 0;
  const loadMs = t.driveMs + t.settleMs;
  const rows: Array<[string, string]> = [
    ['orders', `${f.orders} (placed ${run.placed} of ${run.planned})`],
    ['completed', String(f.completed)],
    ['failed', String(f.failed)],
    ['non-terminal', String(w.nonTerminal)],
    ['transfers on chain', String(f.transfersOnChain)],
    ['duplicate payouts', String(f.duplicates)],
    ['lost', String(w.lost)],
    ['webhook deliveries', String(w.deliveries)],
    ['duplicate webhook deliveries', `${w.duplicateDeliveries} (same X-Webhook-Id again; at-least-once)`],
    ['dead letters', String(verdict.deadLetters)],
    [
      'kills performed',
      `${run.kills.length} SIGKILL (${[...byApp].map(([a, n]) => `${a} ${n}`).join(', ') || 'none'}; mean down ${seconds(meanDown)})`,
    ],
    ['order latency', latency(run.latenciesMs, run.placed)],
    ['client retries', `${run.retries} (5xx or connection errors)`],
    [
      'wall time',
      `${seconds(t.totalMs)} (startup ${seconds(t.startupMs)}, orders ${seconds(t.driveMs)}, settling ${seconds(t.settleMs)})`,
    ],
    ['throughput', `${(f.orders / (loadMs / 1000)).toFixed(2)} orders/s (first create to quiescence)`],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return `${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join('\n')}\n`;
}

function latency(ms: number[], placed: number): string {
  if (ms.length === 0) return 'n/a';
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): string =>
    seconds(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const late = placed - ms.length;
  return `p50 ${at(0.5)}, p95 ${at(0.95)}, max ${at(1)} (create to webhook${late ? `; ${late} not within the order timeout` : ''})`;
}
