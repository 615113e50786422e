import { Module } from '@nestjs/common';

import { adminAuditController, MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import {
  loadPaymentIngestConfig,
  loadPaymentIngestRuntime,
  PAYMENT_INGEST_CONFIG,
  PAYMENTS_SCHEMA,
} from './config';
import { CreditMatcher } from './matching/credit-matcher';
import { StatementCreditSettler } from './matching/statement-credit-settler';
import { ExpireOrdersUseCase } from './expiry/expire-orders.usecase';
import { OrderExpirySweeper } from './expiry/order-expiry.sweeper';
import { KycEventsHandler } from './payer-names/kyc-events.handler';
import { StatementInboxWatcher } from './inbox/statement-inbox.watcher';
import { AdminPaymentPoliciesController } from './policies/admin-payment-policies.controller';
import { MerchantPolicies } from './policies/merchant-policies';
import { CollectionAccounts } from './accounts/collection-accounts';
import { OrderEventsHandler } from './references/order-events.handler';
import { RecordSepaCreditUseCase } from './sandbox/record-sepa-credit.usecase';
import { SandboxBankController } from './sandbox/sandbox-bank.controller';
import { SandboxOnlyGuard } from './sandbox/sandbox-only.guard';
import { SERVICE_DATABASE } from './database';
import { AssignCreditUseCase } from './statements/assign-credit.usecase';
import { ReturnCreditUseCase } from './statements/return-credit.usecase';
import { AdminBankStatementsController } from './statements/admin-bank-statements.controller';
import { IngestBankStatementUseCase } from './statements/ingest-bank-statement.usecase';
import { XmlBodyParser } from './statements/xml-body';
import { PaymentsPayerData } from './payer-data/payer-data.cipher';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadPaymentIngestConfig().databaseUrl,
      ...SERVICE_DATABASE,
      ...loadPaymentIngestRuntime().database,
    })),
    MessagingModule.forService({
      schema: PAYMENTS_SCHEMA,
      service: 'payment-ingest',
      transport: () => loadPaymentIngestRuntime().transport,
    }),
    MerchantAuthModule.forRoot(() => loadPaymentIngestRuntime().merchantAuth),
    ServiceCallersModule.forRoot(() => loadPaymentIngestRuntime().callers),
    MetricsModule.forRoot(() => loadPaymentIngestRuntime().metrics),
  ],
  controllers: [
    HealthController,
    MetricsController,
    SandboxBankController,
    AdminBankStatementsController,
    AdminPaymentPoliciesController,
    adminAuditController(PAYMENTS_SCHEMA, 'payment-ingest'),
  ],
  providers: [
    { provide: PAYMENT_INGEST_CONFIG, useFactory: () => loadPaymentIngestConfig() },
    SandboxOnlyGuard,
    CreditMatcher,
    StatementCreditSettler,
    RecordSepaCreditUseCase,
    OrderEventsHandler,
    IngestBankStatementUseCase,
    AssignCreditUseCase,
    ReturnCreditUseCase,
    XmlBodyParser,
    ExpireOrdersUseCase,
    OrderExpirySweeper,
    KycEventsHandler,
    StatementInboxWatcher,
    MerchantPolicies,
    CollectionAccounts,
    PaymentsPayerData,
  ],
})
export class AppModule {}
