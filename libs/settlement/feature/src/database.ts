import { adminAuditMigration, type ServiceDataSourceOptions } from '@onramp/persistence';

import { SETTLEMENT_SCHEMA } from './config';
import { CreateSettlementTables1763800100000 } from './migrations/1763800100000-create-settlement-tables';
import { CreateSettlementTransactions1763800200000 } from './migrations/1763800200000-create-settlement-transactions';
import { SettlementTraceparent1763800300000 } from './migrations/1763800300000-settlement-traceparent';
import { PaymentReversals1764500000000 } from './migrations/1764500000000-payment-reversals';
import { SettlementScreeningAndHolds1764600000000 } from './migrations/1764600000000-settlement-screening-and-holds';
import { SignerLeases1764700000000 } from './migrations/1764700000000-signer-leases';
import { OutboxDeleteOnPublish1764810000000 } from './migrations/1764810000000-outbox-delete-on-publish';
import { SignedTotalsAndHeldIndex1764900000000 } from './migrations/1764900000000-signed-totals-and-held-index';
import { QueueTablesAutovacuum1765000000000 } from './migrations/1765000000000-queue-tables-autovacuum';
import { OutboxKeyHash1767226200000 } from './migrations/1767226200000-outbox-key-hash';
import { SettlementsInFlightIndex1767226600000 } from './migrations/1767226600000-settlements-in-flight-index';
import { SettlementsUnpaidIndex1767226700000 } from './migrations/1767226700000-settlements-unpaid-index';
import { SettlementTransactionEntity } from './settlements/settlement-transaction.entity';
import { SettlementEntity } from './settlements/settlement.entity';
import { SignerEntity } from './settlements/signer.entity';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: SETTLEMENT_SCHEMA,
  entities: [SettlementEntity, SignerEntity, SettlementTransactionEntity],
  migrations: [
    CreateSettlementTables1763800100000,
    CreateSettlementTransactions1763800200000,
    SettlementTraceparent1763800300000,
    PaymentReversals1764500000000,
    SettlementScreeningAndHolds1764600000000,
    // settlement.admin_audit: operators releasing HELD settlements (POST /admin/settlements/{orderUuid}/release)
    adminAuditMigration(SETTLEMENT_SCHEMA, 1764600000001),
    SignerLeases1764700000000,
    OutboxDeleteOnPublish1764810000000,
    SignedTotalsAndHeldIndex1764900000000,
    QueueTablesAutovacuum1765000000000,
    OutboxKeyHash1767226200000,
    SettlementsInFlightIndex1767226600000,
    SettlementsUnpaidIndex1767226700000,
  ],
};
