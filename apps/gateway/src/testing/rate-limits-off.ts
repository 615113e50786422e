// The public listeners' limits off (the bench's setting): in embedded mode the gateway then hands
// plain requests over before its router (early-handoff.ts), so a spec run with these goes that way.
export const RATE_LIMITS_OFF = {
  RATE_LIMIT_PER_SECOND: '0',
  RATE_LIMIT_PER_CLIENT_PER_SECOND: '0',
  AUTH_TOKEN_RATE_LIMIT_PER_SECOND: '0',
  AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
} as const;
