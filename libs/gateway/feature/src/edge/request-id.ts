import { randomUUID } from 'node:crypto';

// A caller's X-Request-Id is kept when it is a sane token (so a trace spans client and platform);
// anything else is replaced, so the header can never carry log-injection payloads.
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}
