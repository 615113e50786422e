import { DynamicModule, Module } from '@nestjs/common';

import { adminAuditController } from '@onramp/auth';
import { serviceInfrastructure } from '@onramp/service-runtime';

import { AdminMerchantsController } from './admin/admin-merchants.controller';
import { AdminOperatorsController } from './admin/admin-operators.controller';
import { AdminSigningKeysController } from './admin/admin-signing-keys.controller';
import { AUTH_CONFIG, AUTH_SCHEMA, AuthConfig } from './config';
import { SERVICE_DATABASE } from './database';
import { JwksController } from './keys/jwks.controller';
import { TokenRevocationsController } from './keys/token-revocations.controller';
import { SigningKeysRepository } from './keys/signing-keys.repository';
import { SigningKeysService } from './keys/signing-keys.service';
import { CreateMerchantUseCase } from './merchants/create-merchant.usecase';
import { DemoMerchantSeeder } from './merchants/demo-merchant.seeder';
import { ListMerchantsUseCase } from './merchants/list-merchants.usecase';
import { MerchantsRepository } from './merchants/merchants.repository';
import { RotateMerchantSecretUseCase } from './merchants/rotate-merchant-secret.usecase';
import { SecretHasher } from './merchants/secret-hasher';
import { OperatorKeysController } from './operators/operator-keys.controller';
import { OperatorsRepository } from './operators/operators.repository';
import { OperatorsService } from './operators/operators.service';
import { IssueTokenUseCase } from './token/issue-token.usecase';
import { TokenController } from './token/token.controller';

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment. No MessagingModule: auth neither
// produces nor consumes events.
@Module({})
export class AuthModule {
  static forRoot(config: AuthConfig): DynamicModule {
    const infrastructure = serviceInfrastructure(config.databaseUrl, SERVICE_DATABASE, config.runtime);
    return {
      module: AuthModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
        TokenController,
        JwksController,
        TokenRevocationsController,
        AdminMerchantsController,
        AdminSigningKeysController,
        AdminOperatorsController,
        OperatorKeysController,
        adminAuditController(AUTH_SCHEMA, 'auth'),
      ],
      providers: [
        { provide: AUTH_CONFIG, useValue: config },
        MerchantsRepository,
        SigningKeysRepository,
        SecretHasher,
        SigningKeysService,
        DemoMerchantSeeder,
        IssueTokenUseCase,
        CreateMerchantUseCase,
        ListMerchantsUseCase,
        RotateMerchantSecretUseCase,
        OperatorsRepository,
        OperatorsService,
      ],
    };
  }
}
