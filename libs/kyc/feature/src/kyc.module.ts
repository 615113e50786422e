import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { adminAuditController } from '@onramp/auth';
import { FieldCipher } from '@onramp/crypto';
import { IdempotentRequests } from '@onramp/http';
import { serviceInfrastructure } from '@onramp/service-runtime';

import { AdminKycUsersController } from './admin/admin-kyc-users.controller';
import { DecideKycUserUseCase } from './admin/decide-kyc-user.usecase';
import { EraseKycUserUseCase } from './admin/erase-kyc-user.usecase';
import { KycErasureRepository } from './admin/kyc-erasure.repository';
import { KYC_CONFIG, KYC_SCHEMA, KycConfig } from './config';
import { SERVICE_DATABASE } from './database';
import { InternalKycUsersController } from './internal/internal-kyc-users.controller';
import { AddKycUserUseCase } from './kyc-users/add-kyc-user.usecase';
import { KycPiiCipher } from './kyc-users/kyc-pii';
import { KycUsersController } from './kyc-users/kyc-users.controller';
import { KycUsersQueries } from './kyc-users/kyc-users.queries';
import { KycUsersRepository } from './kyc-users/kyc-users.repository';

// The whole service as one module, built from a parsed config: main.ts, the embedded runner and the
// tests each pass their own, so nothing here reads the environment.
@Module({})
export class KycModule {
  static forRoot(config: KycConfig): DynamicModule {
    const infrastructure = serviceInfrastructure(config.databaseUrl, SERVICE_DATABASE, config.runtime, 'kyc');
    return {
      module: KycModule,
      imports: infrastructure.imports,
      controllers: [
        ...infrastructure.controllers,
        KycUsersController,
        InternalKycUsersController,
        AdminKycUsersController,
        adminAuditController(KYC_SCHEMA, 'kyc'),
      ],
      providers: [
        { provide: KYC_CONFIG, useValue: config },
        {
          provide: KycPiiCipher,
          useFactory: () =>
            new KycPiiCipher(new FieldCipher([config.encryptionKey, ...config.previousEncryptionKeys])),
        },
        {
          provide: IdempotentRequests,
          inject: [DataSource, KycPiiCipher],
          useFactory: (ds: DataSource, pii: KycPiiCipher) =>
            new IdempotentRequests(ds, KYC_SCHEMA, pii.responseBodies),
        },
        KycUsersRepository,
        KycErasureRepository,
        AddKycUserUseCase,
        DecideKycUserUseCase,
        EraseKycUserUseCase,
        KycUsersQueries,
      ],
    };
  }
}
