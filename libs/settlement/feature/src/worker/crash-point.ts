// Fault injection for the chaos suite: SETTLEMENT_CRASH_POINT names points (comma-separated) where
// the process kills itself with SIGKILL, as a power cut would, so the three windows that matter for
// "pay exactly once" are hit exactly, not by luck of timing. Never honoured in production mode.
export type CrashPoint =
  | 'after-sign' // signed transaction committed, not yet broadcast
  | 'after-broadcast' // the node has the transaction, our database does not know yet
  | 'awaiting-receipt'; // broadcast recorded, receipt not yet recorded

// The points armed, parsed with the config (loadChainSettlementConfig): none in production mode.
export function armedCrashPoints(raw: string, mode: 'sandbox' | 'production'): ReadonlySet<string> {
  if (mode === 'production') return new Set();
  return new Set(
    raw
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== ''),
  );
}

export function crashPoint(point: CrashPoint, armed: ReadonlySet<string>): void {
  if (armed.has(point)) process.kill(process.pid, 'SIGKILL');
}
