import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';

import { MerchantAuthGuard } from './merchant-auth.guard';
import { MerchantJwtStrategy } from './merchant-jwt.strategy';

@Global()
@Module({
  imports: [PassportModule],
  providers: [MerchantJwtStrategy, MerchantAuthGuard],
  exports: [MerchantAuthGuard],
})
export class MerchantAuthModule {}
