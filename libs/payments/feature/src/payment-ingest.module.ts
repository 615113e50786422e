import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController } from '@onramp/auth';
import { serviceInfrastructure } from '@onramp/service-runtime';

import { PAYMENT_INGEST_CONFIG, PAYMENTS_SCHEMA, PaymentIngestConfig } from './config';
import { BankTransactionsRepository } from './bank/bank-transactions.repository';
import { CreditMatcher } from './matching/credit-matcher';
import { StatementCreditSettler } from './matching/statement-credit-settler';
import { ExpireOrdersUseCase } from './expiry/expire-orders.usecase';
import { OrderExpirySweeper } from './expiry/order-expiry.sweeper';
import { KycErasureHandler } from './payer-names/kyc-erasure.handler';
import { KycEventsHandler } from './payer-names/kyc-events.handler';
import { KycHoldersRepository } from './payer-names/kyc-holders.repository';
import { StatementInboxWatcher } from './inbox/statement-inbox.watcher';
import { AdminPaymentPoliciesController } from './policies/admin-payment-policies.controller';
import { MerchantPolicies } from './policies/merchant-policies';
import { CollectionAccounts } from './accounts/collection-accounts';
import { CollectionAccountsRepository } from './accounts/collection-accounts.repository';
import { MerchantPoliciesRepository } from './policies/merchant-policies.repository';
import { BankStatementsRepository } from './statements/bank-statements.repository';
import { ReturnsRepository } from './statements/returns.repository';
import { OpenReferencesRepository } from './references/open-references.repository';
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
    const infrastructure = serviceInfrastructure(
      config.databaseUrl,
      SERVICE_DATABASE,
      config.runtime,
      'payment-ingest',
    );
    return {
      module: PaymentIngestModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
        SandboxBankController,
        AdminBankStatementsController,
        AdminPaymentPoliciesController,
        adminAuditController(PAYMENTS_SCHEMA, 'payment-ingest'),
      ],
      providers: [
        { provide: PAYMENT_INGEST_CONFIG, useValue: config },
        SandboxOnlyGuard,
        OpenReferencesRepository,
        BankTransactionsRepository,
        KycHoldersRepository,
        ReturnsRepository,
        BankStatementsRepository,
        MerchantPoliciesRepository,
        CollectionAccountsRepository,
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
