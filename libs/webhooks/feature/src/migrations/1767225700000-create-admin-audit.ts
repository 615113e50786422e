import { adminAuditMigration } from '@onramp/persistence';

// Operators' redeliveries, append-only.
export const CreateAdminAudit1767225700000 = adminAuditMigration('webhooks', 1767225700000);
