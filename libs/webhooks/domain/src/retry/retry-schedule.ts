import { parseRetryAfter } from './retry-after';

export interface RetryPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  windowMs: number; // retries continue at least this long after the first attempt, then the delivery is dead
  maxRetryAfterMs: number; // a receiver cannot park a delivery for longer than this with Retry-After
}

export const HOUR_MS = 3_600_000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: HOUR_MS,
  windowMs: 72 * HOUR_MS,
  maxRetryAfterMs: 24 * HOUR_MS,
};

export type RetryDecision = { kind: 'retry'; delayMs: number; nextAttemptAt: Date } | { kind: 'dead' };

export interface RetryInput {
  attempt: number; // attempts made so far, counting the one that just failed (>= 1)
  windowStartedAt: Date; // when the current series of attempts began
  now: Date;
  retryAfter?: string | null; // the failed response's Retry-After header
}

// Exponential backoff with full jitter: uniform in [0, min(max, base * 2^(attempt-1))).
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

// After a failed attempt: when to try again, or dead once the window has passed. Retry-After is
// honoured (never earlier than it says) up to maxRetryAfterMs.
export function nextRetry(input: RetryInput, policy: RetryPolicy, random: () => number): RetryDecision {
  const now = input.now.getTime();
  if (now - input.windowStartedAt.getTime() >= policy.windowMs) return { kind: 'dead' };
  let delayMs = backoffDelayMs(input.attempt, policy, random);
  const asked = parseRetryAfter(input.retryAfter, now);
  if (asked !== null) delayMs = Math.max(delayMs, Math.min(asked, policy.maxRetryAfterMs));
  return { kind: 'retry', delayMs, nextAttemptAt: new Date(now + delayMs) };
}
