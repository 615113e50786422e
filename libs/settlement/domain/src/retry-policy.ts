export const MAX_RETRY_DELAY_MS = 30_000;

// Exponential backoff for a settlement that cannot move yet (wallet underfunded, RPC down):
// base, 2 x base, 4 x base ... capped, so an alert-worthy wait never turns into a busy loop.
export function retryDelayMs(failedAttempts: number, baseMs: number, capMs = MAX_RETRY_DELAY_MS): number {
  const exponent = Math.min(Math.max(failedAttempts, 0), 20);
  return Math.min(baseMs * 2 ** exponent, capMs);
}
