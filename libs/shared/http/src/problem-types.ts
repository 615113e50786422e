// RFC 9457 `type` URIs. Every URI is built here, so a service names its own problem types in one
// file (`<service>/problem-types.ts`) and never spells a URI out where it throws.
const PROBLEM_TYPE_BASE = 'https://onramp.dev/problems/';

export const problemType = (slug: string): string => `${PROBLEM_TYPE_BASE}${slug}`;

// The types every HTTP edge can send (validation pipe, guards, the helpers of problem.exception.ts).
export const SharedProblemTypes = {
  Validation: problemType('validation'),
  Unauthorized: problemType('unauthorized'),
  NotFound: problemType('not-found'),
  Conflict: problemType('conflict'),
  BusinessRule: problemType('business-rule'),
  // The gateway's rate limiter; documented on every public operation.
  RateLimited: problemType('rate-limited'),
} as const;
