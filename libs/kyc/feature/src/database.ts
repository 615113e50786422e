import type { ServiceDataSourceOptions } from '@onramp/persistence';

import { KYC_SCHEMA } from './config';
import { KycUserEntity } from './kyc-users/kyc-user.entity';
import { CreateKycUsers1750000100000 } from './migrations/1750000100000-create-kyc-users';
import { KycDecisions1763900000000 } from './migrations/1763900000000-kyc-decisions';
import { CreateAdminAudit1764100000000 } from './migrations/1764100000000-create-admin-audit';
import { KycErasure1764600000000 } from './migrations/1764600000000-kyc-erasure';
import { OutboxDeleteOnPublish1764810000000 } from './migrations/1764810000000-outbox-delete-on-publish';
import { QueueTablesAutovacuum1765000000000 } from './migrations/1765000000000-queue-tables-autovacuum';
import { OutboxKeyHash1767226200000 } from './migrations/1767226200000-outbox-key-hash';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: KYC_SCHEMA,
  entities: [KycUserEntity],
  migrations: [
    CreateKycUsers1750000100000,
    KycDecisions1763900000000,
    CreateAdminAudit1764100000000,
    KycErasure1764600000000,
    OutboxDeleteOnPublish1764810000000,
    QueueTablesAutovacuum1765000000000,
    OutboxKeyHash1767226200000,
  ],
};
