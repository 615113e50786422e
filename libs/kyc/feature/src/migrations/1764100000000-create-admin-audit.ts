import { adminAuditMigration } from '@onramp/persistence';

// Operators' KYC decisions (beside kyc_decisions, which also keeps a provider's), append-only.
export const CreateAdminAudit1764100000000 = adminAuditMigration('kyc', 1764100000000);
