import { problemType } from '@onramp/http';

// Problem types only the auth service sends (docs/api.md, errors).
export const AuthProblemTypes = {
  InvalidClient: problemType('invalid-client'),
} as const;
