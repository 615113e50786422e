import { queueTablesAutovacuumMigration } from '@onramp/persistence';

// Autovacuum by a count of dead rows on the tables used as queues, so their claims walk no more
// dead index entries as the tables grow; see queueTablesAutovacuumSql.
export const QueueTablesAutovacuum1765000000000 = queueTablesAutovacuumMigration(
  'QueueTablesAutovacuum1765000000000',
  'settlement',
  ['outbox', 'settlements', 'settlement_transactions'],
);
