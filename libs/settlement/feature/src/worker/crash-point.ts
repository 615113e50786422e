// Fault injection for the chaos suite: SETTLEMENT_CRASH_POINT names points (comma-separated) where
// the process kills itself with SIGKILL, as a power cut would, so the three windows that matter for
// "pay exactly once" are hit exactly, not by luck of timing. Never honoured in production mode.
export type CrashPoint =
  | 'after-sign' // signed transaction committed, not yet broadcast
  | 'after-broadcast' // the node has the transaction, our database does not know yet
  | 'awaiting-receipt'; // broadcast recorded, receipt not yet recorded

export function crashPoint(point: CrashPoint, env: NodeJS.ProcessEnv = process.env): void {
  if (env['ONRAMP_MODE'] === 'production') return;
  const points = (env['SETTLEMENT_CRASH_POINT'] ?? '').split(',').map((p) => p.trim());
  if (points.includes(point)) process.kill(process.pid, 'SIGKILL');
}
