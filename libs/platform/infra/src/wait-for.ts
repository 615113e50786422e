export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  description?: string;
}

type Falsy = false | 0 | '' | null | undefined;

// Polls until the predicate returns a truthy value and returns it. A throwing predicate counts as
// "not yet"; its last error is reported on timeout, which is usually the most useful clue.
export async function waitFor<T>(
  predicate: () => T | Falsy | Promise<T | Falsy>,
  { timeoutMs = 10_000, intervalMs = 100, description = 'condition' }: WaitForOptions = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await predicate();
      if (value) return value;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `: last error: ${lastError.message}` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${description}${cause}`, {
        cause: lastError,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
