import { DynamicModule, Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';

import { MerchantAuthGuard } from './merchant-auth.guard';
import { MERCHANT_AUTH_CONFIG, MerchantAuthConfig, MerchantJwtStrategy } from './merchant-jwt.strategy';

// Merchant bearer tokens (MerchantAuthGuard), verified against the auth service the app's config
// names.
@Global()
@Module({})
export class MerchantAuthModule {
  static forRoot(config: MerchantAuthConfig): DynamicModule {
    return {
      module: MerchantAuthModule,
      imports: [PassportModule],
      providers: [
        { provide: MERCHANT_AUTH_CONFIG, useValue: config },
        MerchantJwtStrategy,
        MerchantAuthGuard,
      ],
      exports: [MerchantAuthGuard],
    };
  }
}
