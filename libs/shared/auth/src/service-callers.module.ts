import { DynamicModule, Global, Module } from '@nestjs/common';

import { SERVICE_CALLERS, ServiceCallers } from './service-credential';

// The services allowed to call this one (AdminGuard, ServiceCredentialGuard), from the app's config.
@Global()
@Module({})
export class ServiceCallersModule {
  static forRoot(callers: ServiceCallers): DynamicModule {
    return {
      module: ServiceCallersModule,
      providers: [{ provide: SERVICE_CALLERS, useValue: callers }],
      exports: [SERVICE_CALLERS],
    };
  }
}
