import { problemType } from '@onramp/http';

// Problem types only the orders service sends (docs/api.md, errors).
export const OrdersProblemTypes = {
  KycUserUnknown: problemType('kyc-user-unknown'),
  KycNotApproved: problemType('kyc-not-approved'),
} as const;
