import { Module } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MerchantAuthModule } from '@onramp/auth';
import { FieldCipher } from '@onramp/crypto';
import { HealthController, IdempotentRequests } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { typeOrmRootFor } from '@onramp/persistence';

import { KYC_CONFIG, KYC_SCHEMA, KycConfig, loadKycConfig } from './config';
import { InternalKycUsersController } from './internal/internal-kyc-users.controller';
import { AddKycUserUseCase } from './kyc-users/add-kyc-user.usecase';
import { KycUserEntity } from './kyc-users/kyc-user.entity';
import { KycPiiCipher } from './kyc-users/kyc-pii';
import { KycUsersController } from './kyc-users/kyc-users.controller';
import { KycUsersQueries } from './kyc-users/kyc-users.queries';
import { CreateKycUsers1750000100000 } from './migrations/1750000100000-create-kyc-users';

@Module({
  imports: [
    typeOrmRootFor(() => ({
      url: loadKycConfig().databaseUrl,
      schema: KYC_SCHEMA,
      entities: [KycUserEntity],
      migrations: [CreateKycUsers1750000100000],
    })),
    MessagingModule.forService({ schema: KYC_SCHEMA, service: 'kyc' }),
    MerchantAuthModule,
  ],
  controllers: [HealthController, KycUsersController, InternalKycUsersController],
  providers: [
    { provide: KYC_CONFIG, useFactory: loadKycConfig },
    {
      provide: KycPiiCipher,
      inject: [KYC_CONFIG],
      useFactory: (config: KycConfig) => new KycPiiCipher(new FieldCipher(config.encryptionKey)),
    },
    {
      provide: IdempotentRequests,
      inject: [DataSource],
      useFactory: (ds: DataSource) => new IdempotentRequests(ds, KYC_SCHEMA),
    },
    AddKycUserUseCase,
    KycUsersQueries,
  ],
})
export class AppModule {}
