import { addColumnMigration } from '@onramp/persistence';

// kyc.user.registered and kyc.user.status-changed travel on different topics: the projection
// keeps the status with the highest version, whichever arrives last.
export const KycStatusVersion1763900000000 = addColumnMigration('KycStatusVersion1763900000000', {
  table: 'orders.kyc_users',
  column: 'status_version',
  definition: 'INTEGER NOT NULL DEFAULT 0',
});
