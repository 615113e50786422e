import type { MerchantPolicyRow } from '../policies/merchant-policies.repository';

// What settling a credit reads besides the credit and its reference: the merchant's stored payment
// policies (undefined: the defaults) and the order's KYC holder name, sealed (undefined: none known).
// A caller that read them with the reference, in the same statement, hands them to the settler,
// which then reads nothing more.
export interface SettlementContext {
  policy: MerchantPolicyRow | undefined;
  sealedHolderName: string | undefined;
}
