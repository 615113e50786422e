const DELAY_SECONDS = /^\s*(\d+)\s*$/;
// IMF-fixdate and the two obsolete forms RFC 9110 says recipients must accept.
const HTTP_DATE =
  /^\s*(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{2}-\w{3}-\d{2} \d{2}:\d{2}:\d{2} GMT|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4})\s*$/;

// Milliseconds the receiver asked us to wait (Retry-After: delay-seconds or HTTP-date), or null when
// the header is absent or unreadable. A date in the past means "now".
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  if (value === null || value === undefined) return null;
  const seconds = DELAY_SECONDS.exec(value);
  if (seconds) return Number(seconds[1]) * 1000;
  if (!HTTP_DATE.test(value)) return null;
  const at = Date.parse(value.includes('GMT') ? value : `${value} GMT`);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}
