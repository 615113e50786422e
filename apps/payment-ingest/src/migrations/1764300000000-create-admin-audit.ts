import { MigrationInterface, QueryRunner } from 'typeorm';

import { createAdminAuditTable, dropAdminAuditTable } from '@onramp/persistence';

// Operators' money decisions (statements, assigning and returning credits), append-only.
export class CreateAdminAudit1764300000000 implements MigrationInterface {
  name = 'CreateAdminAudit1764300000000';

  async up(qr: QueryRunner): Promise<void> {
    await createAdminAuditTable(qr, 'payments');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropAdminAuditTable(qr, 'payments');
  }
}
