import { outboxKeyHashMigration } from '@onramp/persistence';

// The outbox rows carry their key's hash, so the embedded bus's move needs no hashing in SQL; see
// outboxKeyHashSql.
export const OutboxKeyHash1767226200000 = outboxKeyHashMigration('OutboxKeyHash1767226200000', 'settlement');
