import { adminAuditMigration } from '@onramp/persistence';

// Operators' money decisions (statements, assigning and returning credits), append-only.
export const CreateAdminAudit1764300000000 = adminAuditMigration('payments', 1764300000000);
