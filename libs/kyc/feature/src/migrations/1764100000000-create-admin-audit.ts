import { MigrationInterface, QueryRunner } from 'typeorm';

import { createAdminAuditTable, dropAdminAuditTable } from '@onramp/persistence';

// Operators' KYC decisions (beside kyc_decisions, which also keeps a provider's), append-only.
export class CreateAdminAudit1764100000000 implements MigrationInterface {
  name = 'CreateAdminAudit1764100000000';

  async up(qr: QueryRunner): Promise<void> {
    await createAdminAuditTable(qr, 'kyc');
  }

  async down(qr: QueryRunner): Promise<void> {
    await dropAdminAuditTable(qr, 'kyc');
  }
}
