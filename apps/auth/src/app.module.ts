import { Module } from '@nestjs/common';

import { adminAuditController, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminMerchantsController } from './admin/admin-merchants.controller';
import { AdminSigningKeysController } from './admin/admin-signing-keys.controller';
import { AUTH_CONFIG, AUTH_SCHEMA, loadAuthConfig, loadAuthRuntime } from './config';
import { JwksController } from './keys/jwks.controller';
import { TokenRevocationsController } from './keys/token-revocations.controller';
import { SigningKeysService } from './keys/signing-keys.service';
import { CreateMerchantUseCase } from './merchants/create-merchant.usecase';
import { DemoMerchantSeeder } from './merchants/demo-merchant.seeder';
import { ListMerchantsUseCase } from './merchants/list-merchants.usecase';
import { RotateMerchantSecretUseCase } from './merchants/rotate-merchant-secret.usecase';
import { SecretHasher } from './merchants/secret-hasher';
import { IssueTokenUseCase } from './token/issue-token.usecase';
import { TokenController } from './token/token.controller';

// No MessagingModule: auth neither produces nor consumes events.
import { SERVICE_DATABASE } from './database';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadAuthConfig().databaseUrl,
      ...SERVICE_DATABASE,
      ...loadAuthRuntime().database,
    })),
    ServiceCallersModule.forRoot(() => loadAuthRuntime().callers),
    MetricsModule.forRoot(() => loadAuthRuntime().metrics),
  ],
  controllers: [
    HealthController,
    MetricsController,
    TokenController,
    JwksController,
    TokenRevocationsController,
    AdminMerchantsController,
    AdminSigningKeysController,
    adminAuditController(AUTH_SCHEMA, 'auth'),
  ],
  providers: [
    { provide: AUTH_CONFIG, useFactory: () => loadAuthConfig() },
    SecretHasher,
    SigningKeysService,
    DemoMerchantSeeder,
    IssueTokenUseCase,
    CreateMerchantUseCase,
    ListMerchantsUseCase,
    RotateMerchantSecretUseCase,
  ],
})
export class AppModule {}
