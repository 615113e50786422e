import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { adminAuditController, MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { FieldCipher } from '@onramp/crypto';
import { HealthController, IdempotentRequests } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { KYC_CONFIG, KYC_SCHEMA, KycConfig, loadKycConfig, loadKycRuntime } from './config';
import { AdminKycUsersController } from './admin/admin-kyc-users.controller';
import { DecideKycUserUseCase } from './admin/decide-kyc-user.usecase';
import { InternalKycUsersController } from './internal/internal-kyc-users.controller';
import { AddKycUserUseCase } from './kyc-users/add-kyc-user.usecase';
import { KycPiiCipher } from './kyc-users/kyc-pii';
import { KycUsersController } from './kyc-users/kyc-users.controller';
import { KycUsersQueries } from './kyc-users/kyc-users.queries';
import { SERVICE_DATABASE } from './database';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadKycConfig().databaseUrl,
      ...SERVICE_DATABASE,
      ...loadKycRuntime().database,
    })),
    MessagingModule.forService({
      schema: KYC_SCHEMA,
      service: 'kyc',
      transport: () => loadKycRuntime().transport,
    }),
    MerchantAuthModule.forRoot(() => loadKycRuntime().merchantAuth),
    ServiceCallersModule.forRoot(() => loadKycRuntime().callers),
    MetricsModule.forRoot(() => loadKycRuntime().metrics),
  ],
  controllers: [
    HealthController,
    MetricsController,
    KycUsersController,
    InternalKycUsersController,
    AdminKycUsersController,
    adminAuditController(KYC_SCHEMA, 'kyc'),
  ],
  providers: [
    { provide: KYC_CONFIG, useFactory: loadKycConfig },
    {
      provide: KycPiiCipher,
      inject: [KYC_CONFIG],
      useFactory: (config: KycConfig) =>
        new KycPiiCipher(new FieldCipher([config.encryptionKey, ...config.previousEncryptionKeys])),
    },
    {
      provide: IdempotentRequests,
      inject: [DataSource, KycPiiCipher],
      useFactory: (ds: DataSource, pii: KycPiiCipher) =>
        new IdempotentRequests(ds, KYC_SCHEMA, pii.responseBodies),
    },
    AddKycUserUseCase,
    DecideKycUserUseCase,
    KycUsersQueries,
  ],
})
export class AppModule {}
