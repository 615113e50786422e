import { randomUUID } from 'node:crypto';

import { DataSource, EntityManager, MigrationInterface, QueryRunner } from 'typeorm';

// The append-only record of what operators changed: who (the operator the gateway authenticated),
// what (action, target), the state before and after (never a secret), the request id and when.
// One table per service schema, written in the transaction of the change itself, so an action and
// its record commit together or not at all. A trigger refuses UPDATE, DELETE and TRUNCATE: no API,
// and no code path of the app, can edit or remove a record (only the table owner, by dropping it).
export interface AdminActor {
  operator: string;
  requestId?: string;
}

export interface AdminAuditEntry {
  action: string; // e.g. merchant.rotate-secret
  target: string; // the id of what changed
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

export interface AdminAuditRecord extends AdminAuditEntry {
  id: string;
  service: string;
  operator: string;
  requestId: string | null;
  at: string;
}

const table = (schema: string) => `"${schema}"."admin_audit"`;

export async function recordAdminAction(
  manager: EntityManager,
  schema: string,
  actor: AdminActor,
  entry: AdminAuditEntry,
): Promise<void> {
  await manager.query(
    `INSERT INTO ${table(schema)} (id, operator, action, target, before, after, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      randomUUID(),
      actor.operator,
      entry.action,
      entry.target,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      actor.requestId?.slice(0, 200) ?? null,
    ],
  );
}

// Newest first; `before` (an ISO time) pages back through history.
export async function listAdminActions(
  dataSource: DataSource,
  schema: string,
  service: string,
  query: { limit: number; before?: string },
): Promise<AdminAuditRecord[]> {
  const rows = await dataSource.query<
    Array<{
      id: string;
      operator: string;
      action: string;
      target: string;
      before: Record<string, unknown> | null;
      after: Record<string, unknown> | null;
      request_id: string | null;
      at: Date;
    }>
  >(
    `SELECT id, operator, action, target, before, after, request_id, at FROM ${table(schema)}
     WHERE ($1::timestamptz IS NULL OR at < $1::timestamptz) ORDER BY at DESC, id LIMIT $2`,
    [query.before ?? null, query.limit],
  );
  return rows.map((r) => ({
    id: r.id,
    service,
    operator: r.operator,
    action: r.action,
    target: r.target,
    before: r.before,
    after: r.after,
    requestId: r.request_id,
    at: r.at.toISOString(),
  }));
}

// For each service's migration that adds the table.
export async function createAdminAuditTable(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`CREATE TABLE ${table(schema)} (
    "id" UUID PRIMARY KEY,
    "operator" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,
    "at" TIMESTAMPTZ NOT NULL DEFAULT now()
  )`);
  await qr.query(`CREATE INDEX "admin_audit_at" ON ${table(schema)} ("at" DESC)`);
  await qr.query(`CREATE FUNCTION "${schema}"."admin_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the admin audit log is append-only'; END $$`);
  await qr.query(`CREATE TRIGGER "admin_audit_append_only" BEFORE UPDATE OR DELETE ON ${table(schema)}
    FOR EACH ROW EXECUTE FUNCTION "${schema}"."admin_audit_append_only"()`);
  await qr.query(`CREATE TRIGGER "admin_audit_no_truncate" BEFORE TRUNCATE ON ${table(schema)}
    FOR EACH STATEMENT EXECUTE FUNCTION "${schema}"."admin_audit_append_only"()`);
}

export async function dropAdminAuditTable(qr: QueryRunner, schema: string): Promise<void> {
  await qr.query(`DROP TABLE ${table(schema)}`);
  await qr.query(`DROP FUNCTION "${schema}"."admin_audit_append_only"()`);
}

// The migration that adds a service's table: the same one for every service but its schema and the
// timestamp it was given when that service first had operators (TypeORM reads the name's last 13 digits).
export function adminAuditMigration(schema: string, timestamp: number): new () => MigrationInterface {
  return class implements MigrationInterface {
    name = `CreateAdminAudit${timestamp}`;

    async up(qr: QueryRunner): Promise<void> {
      await createAdminAuditTable(qr, schema);
    }

    async down(qr: QueryRunner): Promise<void> {
      await dropAdminAuditTable(qr, schema);
    }
  };
}
