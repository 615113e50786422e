import { MigrationInterface, QueryRunner } from 'typeorm';

import { createAdminAuditTable, dropAdminAuditTable } from '@onramp/persistence';

// Operators' redeliveries, append-only.
export class CreateAdminAudit1767225700000 implements MigrationInterface {
  name = 'CreateAdminAudit1767225700000';

  async up(qr: QueryRunner): Promise<void> {
    await createAdminAuditTable(qr, 'webhooks');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropAdminAuditTable(qr, 'webhooks');
  }
}
