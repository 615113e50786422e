import { MigrationInterface, QueryRunner } from 'typeorm';

import { createAdminAuditTable, dropAdminAuditTable } from '@onramp/persistence';

// Operators' changes (merchants, secrets, signing keys), append-only.
export class CreateAdminAudit1764100000000 implements MigrationInterface {
  name = 'CreateAdminAudit1764100000000';

  async up(qr: QueryRunner): Promise<void> {
    await createAdminAuditTable(qr, 'auth');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropAdminAuditTable(qr, 'auth');
  }
}
