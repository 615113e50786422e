import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController, MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { PAYMENT_INGEST_CONFIG, PAYMENTS_SCHEMA, PaymentIngestConfig } from './config';
import { CreditMatcher } from './matching/credit-matcher';
import { StatementCreditSettler } from './matching/statement-credit-settler';
import { ExpireOrdersUseCase } from './expiry/expire-orders.usecase';
import { OrderExpirySweeper } from './expiry/order-expiry.sweeper';
import { KycErasureHandler } from './payer-names/kyc-erasure.handler';
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

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment.
@Module({})
export class PaymentIngestModule {
  static forRoot(config: PaymentIngestConfig): DynamicModule {
    const { runtime } = config;
    return {
      module: PaymentIngestModule,
      imports: [
        typeOrmRootFor({ url: config.databaseUrl, ...SERVICE_DATABASE, ...runtime.database }),
        MessagingModule.forService({
          schema: PAYMENTS_SCHEMA,
          service: 'payment-ingest',
          transport: runtime.transport,
        }),
        MerchantAuthModule.forRoot(runtime.merchantAuth),
        ServiceCallersModule.forRoot(runtime.callers),
        MetricsModule.forRoot(runtime.metrics),
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
        { provide: PAYMENT_INGEST_CONFIG, useValue: config },
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
        KycErasureHandler,
        StatementInboxWatcher,
        MerchantPolicies,
        CollectionAccounts,
        PaymentsPayerData,
      ],
    };
  }
}
