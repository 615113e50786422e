import { queueTablesAutovacuumMigration } from '@onramp/persistence';

// Autovacuum by a count of dead rows on the tables used as queues, so their claims walk no more
// dead index entries as the tables grow; see queueTablesAutovacuumSql.
export const QueueTablesAutovacuum1767226000000 = queueTablesAutovacuumMigration(
  'QueueTablesAutovacuum1767226000000',
  'webhooks',
  ['outbox', 'deliveries'],
);
