import type { ServiceDataSourceOptions } from '@onramp/persistence';

import { PAYMENTS_SCHEMA } from './config';
import { BankTransactionEntity } from './bank/bank-transaction.entity';
import { CreatePaymentsTables1763800000000 } from './migrations/1763800000000-create-payments-tables';
import { BankStatements1763900000000 } from './migrations/1763900000000-bank-statements';
import { Returns1763900000001 } from './migrations/1763900000001-returns';
import { OrderExpiry1764200000000 } from './migrations/1764200000000-order-expiry';
import { PayerNames1764400000000 } from './migrations/1764400000000-payer-names';
import { MerchantPaymentPolicies1764400000001 } from './migrations/1764400000001-merchant-payment-policies';
import { CreditReversals1764400000002 } from './migrations/1764400000002-credit-reversals';
import { CollectionAccounts1764400000003 } from './migrations/1764400000003-collection-accounts';
import { SealedPayerData1764500000000 } from './migrations/1764500000000-sealed-payer-data';
import { PayoutStopped1764600000000 } from './migrations/1764600000000-payout-stopped';
import { KycHolderErasure1764700000000 } from './migrations/1764700000000-kyc-holder-erasure';
import { CreateAdminAudit1764300000000 } from './migrations/1764300000000-create-admin-audit';
import { OutboxDeleteOnPublish1764810000000 } from './migrations/1764810000000-outbox-delete-on-publish';
import { QueueTablesAutovacuum1765000000000 } from './migrations/1765000000000-queue-tables-autovacuum';
import { OutboxKeyHash1767226200000 } from './migrations/1767226200000-outbox-key-hash';
import { OpenReferenceEntity } from './references/open-reference.entity';

// The schema, entities and migrations of this service: the app at boot and the `migrate` command
// (tools/migrate) read this one list, so a migration can never be known to one and not the other.
export const SERVICE_DATABASE: Omit<ServiceDataSourceOptions, 'url'> = {
  schema: PAYMENTS_SCHEMA,
  entities: [OpenReferenceEntity, BankTransactionEntity],
  migrations: [
    CreatePaymentsTables1763800000000,
    BankStatements1763900000000,
    Returns1763900000001,
    OrderExpiry1764200000000,
    CreateAdminAudit1764300000000,
    PayerNames1764400000000,
    MerchantPaymentPolicies1764400000001,
    CreditReversals1764400000002,
    CollectionAccounts1764400000003,
    SealedPayerData1764500000000,
    PayoutStopped1764600000000,
    KycHolderErasure1764700000000,
    OutboxDeleteOnPublish1764810000000,
    QueueTablesAutovacuum1765000000000,
    OutboxKeyHash1767226200000,
  ],
};
