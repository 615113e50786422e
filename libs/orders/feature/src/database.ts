import type { ServiceDataSourceOptions } from '@onramp/persistence';

import { ORDERS_SCHEMA } from './config';
import { KycUserProjectionEntity } from './kyc/kyc-user-projection.entity';
import { CreateOrders1750000200000 } from './migrations/1750000200000-create-orders';
import { KycStatusVersion1763900000000 } from './migrations/1763900000000-kyc-status-version';
import { OrderBeneficiaryName1764200000000 } from './migrations/1764200000000-order-beneficiary-name';
import { OutboxDeleteOnPublish1764810000000 } from './migrations/1764810000000-outbox-delete-on-publish';
import { QueueTablesAutovacuum1765000000000 } from './migrations/1765000000000-queue-tables-autovacuum';
import { OutboxKeyHash1767226200000 } from './migrations/1767226200000-outbox-key-hash';
import { OrderStatusHistoryEntity } from './orders/order-status-history.entity';
import { OrderEntity } from './orders/order.entity';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: ORDERS_SCHEMA,
  entities: [OrderEntity, OrderStatusHistoryEntity, KycUserProjectionEntity],
  migrations: [
    CreateOrders1750000200000,
    KycStatusVersion1763900000000,
    OrderBeneficiaryName1764200000000,
    OutboxDeleteOnPublish1764810000000,
    QueueTablesAutovacuum1765000000000,
    OutboxKeyHash1767226200000,
  ],
};
