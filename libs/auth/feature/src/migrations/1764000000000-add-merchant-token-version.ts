import { addColumnMigration } from '@onramp/persistence';

// Rotating a merchant's secret bumps its token version; tokens carry the version they were issued
// under (`ver`), and services refuse those below the merchant's current one.
export const AddMerchantTokenVersion1764000000000 = addColumnMigration(
  'AddMerchantTokenVersion1764000000000',
  {
    table: 'auth.merchants',
    column: 'token_version',
    definition: 'INTEGER NOT NULL DEFAULT 0',
  },
);
