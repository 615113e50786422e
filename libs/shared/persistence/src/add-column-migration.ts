import type { MigrationInterface } from 'typeorm';

import { sqlMigration } from './sql-migration';

// A migration that adds one column to one table and drops it on the way down. The SQL it runs is
// byte for byte what each service's migration spelt out before it used this builder (deployed
// databases know those migrations by name only, but the statements must stay what they were).
export interface AddColumn {
  table: string; // schema.table, e.g. `orders.kyc_users`
  column: string;
  definition: string; // the type and constraints after the column's name, e.g. `INTEGER NOT NULL DEFAULT 0`
}

export function addColumnSql({ table, column, definition }: AddColumn): { up: string; down: string } {
  const target = table
    .split('.')
    .map((part) => `"${part}"`)
    .join('.');
  return {
    up: `ALTER TABLE ${target} ADD COLUMN "${column}" ${definition}`,
    down: `ALTER TABLE ${target} DROP COLUMN "${column}"`,
  };
}

// `name` is the class name TypeORM records, ending with the 13-digit timestamp it orders by.
export function addColumnMigration(name: string, spec: AddColumn): new () => MigrationInterface {
  const sql = addColumnSql(spec);
  return sqlMigration(name, { up: [sql.up], down: [sql.down] });
}
