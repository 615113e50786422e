import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController } from '@onramp/auth';
import { serviceInfrastructure } from '@onramp/service-runtime';

import { AdminSettlementsController } from './admin/admin-settlements.controller';
import { HeldSettlementsService } from './admin/held-settlements.service';

import { ChainClient } from './chain/chain.client';
import { Finality } from './chain/finality';
import { LocalKeySigner } from './chain/local-key-signer';
import { RecipientScreening } from './chain/recipient-screening';
import { RemoteRpcSigner } from './chain/remote-rpc-signer';
import { CHAIN_SETTLEMENT_CONFIG, ChainSettlementConfig, SETTLEMENT_SCHEMA } from './config';
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
import { SIGNER_POOL, SignerLeases } from './signers/signer-leases';
import { TransactionReplacer } from './worker/transaction-replacer.service';
import { SERVICE_DATABASE } from './database';

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment. Over HTTP: health, metrics and
// the operators' /admin/settlements (from the gateway only); the work is the event consumer and the
// settlement worker.
@Module({})
export class ChainSettlementModule {
  static forRoot(config: ChainSettlementConfig): DynamicModule {
    const infrastructure = serviceInfrastructure(
      config.databaseUrl,
      SERVICE_DATABASE,
      config.runtime,
      'chain-settlement',
    );
    return {
      module: ChainSettlementModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
        AdminSettlementsController,
        adminAuditController(SETTLEMENT_SCHEMA, 'chain-settlement'),
      ],
      providers: [
        { provide: CHAIN_SETTLEMENT_CONFIG, useValue: config },
        { provide: FX_RATE_PROVIDER, useFactory: () => new StaticFxRateProvider(config.fxRateEurUsdc) },
        FxQuoteService,
        ChainClient,
        Finality,
        RecipientScreening,
        {
          provide: SIGNER_POOL,
          useFactory: () =>
            config.signers.map((signer) =>
              signer.kind === 'local'
                ? new LocalKeySigner(config, signer.key)
                : new RemoteRpcSigner(config, signer),
            ),
        },
        SignerLeases,
        PaymentConfirmedHandler,
        PaymentReversedHandler,
        SignPendingStep,
        TransactionReplacer,
        SettlementFinalizer,
        DriveInFlightStep,
        DriveInFlightBatchStep,
        SettlementWorker,
        SettlementMetrics,
        HeldSettlementsService,
      ],
    };
  }
}
