import { problemType } from '@onramp/http';

// Problem types of the guards in this library (beyond SharedProblemTypes.Unauthorized).
export const AuthGuardProblemTypes = {
  AdminDisabled: problemType('admin-disabled'),
  ServiceCredential: problemType('service-credential'),
  // An operator without the scope a route needs (the gateway's admin listener).
  OperatorScope: problemType('operator-scope'),
} as const;
