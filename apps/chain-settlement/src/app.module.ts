import { Module } from '@nestjs/common';

import { HealthController } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { ChainClient } from './chain/chain.client';
import { TransferSigner } from './chain/transfer-signer';
import {
  CHAIN_SETTLEMENT_CONFIG,
  ChainSettlementConfig,
  loadChainSettlementConfig,
  SETTLEMENT_SCHEMA,
} from './config';
import { FxQuoteService } from './fx/fx-quote.service';
import { FX_RATE_PROVIDER, StaticFxRateProvider } from './fx/fx-rate.provider';
import { MetricsController } from './metrics/metrics.controller';
import { SettlementMetrics } from './metrics/settlement-metrics.service';
import { CreateSettlementTables1763800100000 } from './migrations/1763800100000-create-settlement-tables';
import { CreateSettlementTransactions1763800200000 } from './migrations/1763800200000-create-settlement-transactions';
import { PaymentConfirmedHandler } from './payments/payment-confirmed.handler';
import { SettlementTransactionEntity } from './settlements/settlement-transaction.entity';
import { SettlementEntity } from './settlements/settlement.entity';
import { SignerEntity } from './settlements/signer.entity';
import { DriveInFlightStep } from './worker/drive-in-flight.step';
import { SettlementFinalizer } from './worker/settlement-finalizer.service';
import { SettlementWorker } from './worker/settlement-worker';
import { SignPendingStep } from './worker/sign-pending.step';
import { TransactionReplacer } from './worker/transaction-replacer.service';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadChainSettlementConfig().databaseUrl,
      schema: SETTLEMENT_SCHEMA,
      entities: [SettlementEntity, SignerEntity, SettlementTransactionEntity],
      migrations: [CreateSettlementTables1763800100000, CreateSettlementTransactions1763800200000],
    })),
    MessagingModule.forService({ schema: SETTLEMENT_SCHEMA, service: 'chain-settlement' }),
  ],
  controllers: [HealthController, MetricsController],
  providers: [
    { provide: CHAIN_SETTLEMENT_CONFIG, useFactory: () => loadChainSettlementConfig() },
    {
      provide: FX_RATE_PROVIDER,
      inject: [CHAIN_SETTLEMENT_CONFIG],
      useFactory: (config: ChainSettlementConfig) => new StaticFxRateProvider(config.fxRateEurUsdc),
    },
    FxQuoteService,
    ChainClient,
    TransferSigner,
    PaymentConfirmedHandler,
    SignPendingStep,
    TransactionReplacer,
    SettlementFinalizer,
    DriveInFlightStep,
    SettlementWorker,
    SettlementMetrics,
  ],
})
export class AppModule {}
