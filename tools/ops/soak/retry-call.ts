import { OnrampApiError } from '@onramp/sdk';

export interface RetryStats {
  retries: number; // attempts beyond the first, over the whole run
}

const MAX_ATTEMPTS = 60;

// A failure the caller knows to be temporary, outside the SDK (e.g. the admin API answering 5xx).
export class TransientError extends Error {
  override readonly name = 'TransientError';
}

// Worth another try: the platform answered 5xx or 429 (an upstream of the gateway is down), or did
// not answer at all (the gateway itself is down). Anything else is an answer to keep.
export function isTransient(err: unknown): boolean {
  if (err instanceof OnrampApiError) return err.status >= 500 || err.status === 429;
  // fetch rejects with a TypeError ("fetch failed", "terminated") when the connection fails or drops
  return err instanceof TransientError || err instanceof TypeError;
}

// Retries a call through the kills with a capped backoff. Only calls that are safe to repeat come
// here: creates carry an Idempotency-Key, and a repeated sandbox credit for a paid reference is kept
// as DUPLICATE by the bank and never pays.
export async function withRetries<T>(call: () => Promise<T>, stats: RetryStats): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isTransient(err) || attempt >= MAX_ATTEMPTS) throw err;
      stats.retries++;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** Math.min(attempt, 5))));
    }
  }
}
