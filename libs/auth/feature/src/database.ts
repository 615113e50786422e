import type { ServiceDataSourceOptions } from '@onramp/persistence';

import { AUTH_SCHEMA } from './config';
import { SigningKeyEntity } from './keys/signing-key.entity';
import { MerchantEntity } from './merchants/merchant.entity';
import { CreateAuthTables1763770000000 } from './migrations/1763770000000-create-auth-tables';
import { AddMerchantTokenVersion1764000000000 } from './migrations/1764000000000-add-merchant-token-version';
import { CreateAdminAudit1764100000000 } from './migrations/1764100000000-create-admin-audit';
import { CreateOperators1764300000000 } from './migrations/1764300000000-create-operators';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: AUTH_SCHEMA,
  entities: [MerchantEntity, SigningKeyEntity],
  migrations: [
    CreateAuthTables1763770000000,
    AddMerchantTokenVersion1764000000000,
    CreateAdminAudit1764100000000,
    CreateOperators1764300000000,
  ],
};
