import type { MigrationInterface } from 'typeorm';

import { sqlMigration } from './sql-migration';

// Tables used as queues (an outbox the relay deletes from, deliveries and settlements that move
// through short-lived states under partial indexes) leave a dead index entry behind every row they
// finish, and the claims that read those indexes from their oldest end walk every dead entry until
// a vacuum removes it. Postgres' default starts autovacuum at 50 dead rows plus a fifth of the
// table, so a claim's cost grew with the table itself: measured during P2 of `npm run bench` (about
// 3,000 payouts a minute), the webhook claim read its index 13 times more rows at the end of the
// minute than at its start, and 0.2 ms became 0.85 ms per claim. A fixed count of dead rows, with
// no share of the table, bounds that walk by the rows finished since the last autovacuum visit
// (the server's autovacuum_naptime, a minute by default), however large the table grows.
export const QUEUE_TABLE_DEAD_ROWS = 1000;

export function queueTablesAutovacuumSql(
  schema: string,
  tables: readonly string[],
): { up: string[]; down: string[] } {
  return {
    up: tables.map(
      (t) =>
        `ALTER TABLE "${schema}"."${t}" SET (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = ${QUEUE_TABLE_DEAD_ROWS})`,
    ),
    down: tables.map(
      (t) =>
        `ALTER TABLE "${schema}"."${t}" RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_threshold)`,
    ),
  };
}

export function queueTablesAutovacuumMigration(
  name: string,
  schema: string,
  tables: readonly string[],
): new () => MigrationInterface {
  return sqlMigration(name, queueTablesAutovacuumSql(schema, tables));
}
