import { MigrationInterface, QueryRunner } from 'typeorm';

// A migration that runs fixed statements, in order, up and down: what the migration builders of this
// library (add a column, outbox as a queue, queue tables' autovacuum) produce from their SQL.
// `name` is the class name TypeORM records, ending with the 13-digit timestamp it orders by.
export function sqlMigration(
  name: string,
  sql: { up: readonly string[]; down: readonly string[] },
): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = name;

    async up(qr: QueryRunner): Promise<void> {
      for (const statement of sql.up) await qr.query(statement);
    }

    async down(qr: QueryRunner): Promise<void> {
      for (const statement of sql.down) await qr.query(statement);
    }
  };
}
