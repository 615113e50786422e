import { parseRetryAfter } from './retry-after';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, HOUR_MS, nextRetry, RetryPolicy } from './retry-schedule';

const policy: RetryPolicy = {
  baseDelayMs: 1000,
  maxDelayMs: HOUR_MS,
  windowMs: 72 * HOUR_MS,
  maxRetryAfterMs: 24 * HOUR_MS,
};
const start = new Date('2025-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(start.getTime() + ms);
const top = () => 1 - Number.EPSILON; // just below the jitter ceiling
const zero = () => 0;

describe('backoffDelayMs (full jitter)', () => {
  it('doubles the ceiling per attempt up to the cap', () => {
    expect(backoffDelayMs(1, policy, top)).toBe(999);
    expect(backoffDelayMs(2, policy, top)).toBe(1999);
    expect(backoffDelayMs(5, policy, top)).toBe(15999);
    expect(backoffDelayMs(13, policy, top)).toBe(HOUR_MS - 1);
    expect(backoffDelayMs(10_000, policy, top)).toBe(HOUR_MS - 1);
  });

  it('draws uniformly below the ceiling', () => {
    expect(backoffDelayMs(3, policy, zero)).toBe(0);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(2000);
  });
});

describe('nextRetry', () => {
  it('schedules the next attempt from now', () => {
    const d = nextRetry({ attempt: 2, windowStartedAt: start, now: at(5000) }, policy, () => 0.5);
    expect(d).toEqual({ kind: 'retry', delayMs: 1000, nextAttemptAt: at(6000) });
  });

  it('keeps retrying for the whole window, then gives up', () => {
    const justInside = nextRetry(
      { attempt: 80, windowStartedAt: start, now: at(72 * HOUR_MS - 1) },
      policy,
      top,
    );
    expect(justInside.kind).toBe('retry');
    expect(nextRetry({ attempt: 81, windowStartedAt: start, now: at(72 * HOUR_MS) }, policy, top)).toEqual({
      kind: 'dead',
    });
  });

  it('with the default policy keeps a delivery alive for at least 72 hours of attempts', () => {
    let now = start.getTime();
    let attempt = 0;
    for (;;) {
      attempt++;
      const d = nextRetry({ attempt, windowStartedAt: start, now: new Date(now) }, DEFAULT_RETRY_POLICY, top);
      if (d.kind === 'dead') break;
      now = d.nextAttemptAt.getTime();
    }
    expect(now - start.getTime()).toBeGreaterThanOrEqual(72 * HOUR_MS);
    expect(attempt).toBeGreaterThan(60); // hourly at worst once the cap is reached
  });

  it('never retries earlier than Retry-After (seconds or HTTP date)', () => {
    const secs = nextRetry(
      { attempt: 1, windowStartedAt: start, now: start, retryAfter: '120' },
      policy,
      top,
    );
    expect(secs).toMatchObject({ kind: 'retry', delayMs: 120_000 });
    const date = nextRetry(
      { attempt: 1, windowStartedAt: start, now: start, retryAfter: 'Wed, 01 Jan 2025 00:10:00 GMT' },
      policy,
      top,
    );
    expect(date).toMatchObject({ kind: 'retry', delayMs: 600_000, nextAttemptAt: at(600_000) });
  });

  it('keeps the backoff when Retry-After asks for less', () => {
    const d = nextRetry({ attempt: 12, windowStartedAt: start, now: start, retryAfter: '1' }, policy, top);
    expect(d).toMatchObject({ kind: 'retry', delayMs: 2048 * 1000 - 1 });
  });

  it('caps an outrageous Retry-After', () => {
    const d = nextRetry(
      { attempt: 1, windowStartedAt: start, now: start, retryAfter: String(365 * 24 * 3600) },
      policy,
      top,
    );
    expect(d).toMatchObject({ kind: 'retry', delayMs: 24 * HOUR_MS });
  });

  it('ignores an unreadable Retry-After', () => {
    const d = nextRetry(
      { attempt: 1, windowStartedAt: start, now: start, retryAfter: 'tomorrow' },
      policy,
      () => 0.5,
    );
    expect(d).toMatchObject({ kind: 'retry', delayMs: 500 });
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('1994-11-06T08:49:00Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 30 ', now)).toBe(30_000);
  });

  it('reads the three HTTP-date forms', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(37_000);
    expect(parseRetryAfter('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(37_000);
    expect(parseRetryAfter('Sun Nov  6 08:49:37 1994', now)).toBe(37_000);
  });

  it('treats a past date as now', () => {
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:00:00 GMT', now)).toBe(0);
  });

  it('returns null when absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('', now)).toBeNull();
    expect(parseRetryAfter('-5', now)).toBeNull();
    expect(parseRetryAfter('1.5', now)).toBeNull();
    expect(parseRetryAfter('2024-01-01T00:00:00Z', now)).toBeNull();
    expect(parseRetryAfter('Sun, 99 Foo 1994 08:49:37 GMT', now)).toBeNull();
  });
});
