import { adminAuditMigration } from '@onramp/persistence';

// Operators' changes (merchants, secrets, signing keys), append-only.
export const CreateAdminAudit1764100000000 = adminAuditMigration('auth', 1764100000000);
