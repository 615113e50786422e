import type { ServiceDataSourceOptions } from '@onramp/persistence';

import { WEBHOOKS_SCHEMA } from './config';
import { DeliveryAttemptEntity } from './deliveries/delivery-attempt.entity';
import { WebhookDeliveryEntity } from './deliveries/webhook-delivery.entity';
import { WebhookEndpointEntity } from './endpoints/webhook-endpoint.entity';
import { CreateWebhooksSchema1767225600000 } from './migrations/1767225600000-create-webhooks-schema';
import { CreateAdminAudit1767225700000 } from './migrations/1767225700000-create-admin-audit';
import { IndexPendingDeliveriesByMerchant1767225800000 } from './migrations/1767225800000-index-pending-deliveries-by-merchant';
import { OutboxDeleteOnPublish1767225900000 } from './migrations/1767225900000-outbox-delete-on-publish';
import { QueueTablesAutovacuum1767226000000 } from './migrations/1767226000000-queue-tables-autovacuum';
import { DropDeliveriesDueIndex1767226100000 } from './migrations/1767226100000-drop-deliveries-due-index';
import { OutboxKeyHash1767226200000 } from './migrations/1767226200000-outbox-key-hash';
import { DeliveryLeaseColumn1767226300000 } from './migrations/1767226300000-delivery-lease-column';
import { AttemptLogWithoutForeignKey1767226400000 } from './migrations/1767226400000-attempt-log-without-foreign-key';
import { MerchantDueBounds1767226500000 } from './migrations/1767226500000-merchant-due-bounds';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: WEBHOOKS_SCHEMA,
  entities: [WebhookEndpointEntity, WebhookDeliveryEntity, DeliveryAttemptEntity],
  migrations: [
    CreateWebhooksSchema1767225600000,
    CreateAdminAudit1767225700000,
    IndexPendingDeliveriesByMerchant1767225800000,
    OutboxDeleteOnPublish1767225900000,
    QueueTablesAutovacuum1767226000000,
    DropDeliveriesDueIndex1767226100000,
    OutboxKeyHash1767226200000,
    DeliveryLeaseColumn1767226300000,
    AttemptLogWithoutForeignKey1767226400000,
    MerchantDueBounds1767226500000,
  ],
};
