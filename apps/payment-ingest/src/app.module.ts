import { Module } from '@nestjs/common';

import { MerchantAuthModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { BankTransactionEntity } from './bank/bank-transaction.entity';
import { loadPaymentIngestConfig, PAYMENT_INGEST_CONFIG, PAYMENTS_SCHEMA } from './config';
import { CreditMatcher } from './matching/credit-matcher';
import { CreatePaymentsTables1763800000000 } from './migrations/1763800000000-create-payments-tables';
import { OpenReferenceEntity } from './references/open-reference.entity';
import { OrderEventsHandler } from './references/order-events.handler';
import { RecordSepaCreditUseCase } from './sandbox/record-sepa-credit.usecase';
import { SandboxBankController } from './sandbox/sandbox-bank.controller';
import { SandboxOnlyGuard } from './sandbox/sandbox-only.guard';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadPaymentIngestConfig().databaseUrl,
      schema: PAYMENTS_SCHEMA,
      entities: [OpenReferenceEntity, BankTransactionEntity],
      migrations: [CreatePaymentsTables1763800000000],
    })),
    MessagingModule.forService({ schema: PAYMENTS_SCHEMA, service: 'payment-ingest' }),
    MerchantAuthModule,
  ],
  controllers: [HealthController, SandboxBankController],
  providers: [
    { provide: PAYMENT_INGEST_CONFIG, useFactory: () => loadPaymentIngestConfig() },
    SandboxOnlyGuard,
    CreditMatcher,
    RecordSepaCreditUseCase,
    OrderEventsHandler,
  ],
})
export class AppModule {}
