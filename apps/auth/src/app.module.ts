import { Module } from '@nestjs/common';

import { ADMIN_KEY_SOURCE, AdminKeyGuard } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { typeOrmRootFor } from '@onramp/persistence';

import { AdminMerchantsController } from './admin/admin-merchants.controller';
import { AdminSigningKeysController } from './admin/admin-signing-keys.controller';
import { AUTH_CONFIG, AUTH_SCHEMA, loadAuthConfig } from './config';
import { JwksController } from './keys/jwks.controller';
import { SigningKeyEntity } from './keys/signing-key.entity';
import { SigningKeysService } from './keys/signing-keys.service';
import { CreateMerchantUseCase } from './merchants/create-merchant.usecase';
import { DemoMerchantSeeder } from './merchants/demo-merchant.seeder';
import { ListMerchantsUseCase } from './merchants/list-merchants.usecase';
import { MerchantEntity } from './merchants/merchant.entity';
import { RotateMerchantSecretUseCase } from './merchants/rotate-merchant-secret.usecase';
import { SecretHasher } from './merchants/secret-hasher';
import { CreateAuthTables1763770000000 } from './migrations/1763770000000-create-auth-tables';
import { IssueTokenUseCase } from './token/issue-token.usecase';
import { TokenController } from './token/token.controller';

// No MessagingModule: auth neither produces nor consumes events.
@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadAuthConfig().databaseUrl,
      schema: AUTH_SCHEMA,
      entities: [MerchantEntity, SigningKeyEntity],
      migrations: [CreateAuthTables1763770000000],
    })),
  ],
  controllers: [
    HealthController,
    TokenController,
    JwksController,
    AdminMerchantsController,
    AdminSigningKeysController,
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
    // AuthConfig carries the validated adminApiKey: the guard reads it from there.
    { provide: ADMIN_KEY_SOURCE, useExisting: AUTH_CONFIG },
    AdminKeyGuard,
  ],
})
export class AppModule {}
