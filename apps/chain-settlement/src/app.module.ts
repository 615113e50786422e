import { Module } from '@nestjs/common';

import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { ChainClient } from './chain/chain.client';
import { Finality } from './chain/finality';
import { LocalKeySigner } from './chain/local-key-signer';
import { RecipientScreening } from './chain/recipient-screening';
import { RemoteRpcSigner } from './chain/remote-rpc-signer';
import { TransferSigner } from './chain/transfer-signer';
import {
  CHAIN_SETTLEMENT_CONFIG,
  ChainSettlementConfig,
  loadChainSettlementConfig,
  loadChainSettlementRuntime,
  SETTLEMENT_SCHEMA,
} from './config';
import { FxQuoteService } from './fx/fx-quote.service';
import { FX_RATE_PROVIDER, StaticFxRateProvider } from './fx/fx-rate.provider';
import { SettlementMetrics } from './metrics/settlement-metrics.service';
import { PaymentConfirmedHandler } from './payments/payment-confirmed.handler';
import { PaymentReversedHandler } from './payments/payment-reversed.handler';
import { DriveInFlightBatchStep } from './worker/drive-in-flight-batch.step';
import { DriveInFlightStep } from './worker/drive-in-flight.step';
import { SettlementFinalizer } from './worker/settlement-finalizer.service';
import { SettlementWorker } from './worker/settlement-worker';
import { SignPendingStep } from './worker/sign-pending.step';
import { TransactionReplacer } from './worker/transaction-replacer.service';
import { SERVICE_DATABASE } from './database';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadChainSettlementConfig().databaseUrl,
      ...SERVICE_DATABASE,
      ...loadChainSettlementRuntime().database,
    })),
    MessagingModule.forService({
      schema: SETTLEMENT_SCHEMA,
      service: 'chain-settlement',
      transport: () => loadChainSettlementRuntime().transport,
    }),
    MetricsModule.forRoot(() => loadChainSettlementRuntime().metrics),
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
    Finality,
    RecipientScreening,
    {
      provide: TransferSigner,
      inject: [CHAIN_SETTLEMENT_CONFIG],
      useFactory: (config: ChainSettlementConfig): TransferSigner =>
        config.signer.kind === 'local'
          ? new LocalKeySigner(config, config.signer.key)
          : new RemoteRpcSigner(config, config.signer),
    },
    PaymentConfirmedHandler,
    PaymentReversedHandler,
    SignPendingStep,
    TransactionReplacer,
    SettlementFinalizer,
    DriveInFlightStep,
    DriveInFlightBatchStep,
    SettlementWorker,
    SettlementMetrics,
  ],
})
export class AppModule {}
