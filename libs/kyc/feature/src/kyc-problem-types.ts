import { problemType, ProblemException } from '@onramp/http';

// Problem types only kyc sends (docs/api.md, errors).
export const KycProblemTypes = {
  Erased: problemType('kyc-user-erased'),
} as const;

// An operator erased this user's personal data: the user existed (not a 404), nothing is left to show.
export const kycUserErased = () =>
  new ProblemException(410, "this KYC user's personal data was erased", { type: KycProblemTypes.Erased });
