import { DynamicModule, Global, Module } from '@nestjs/common';

import { SERVICE_CALLERS, ServiceCallers } from './service-credential';

// The services allowed to call this one (AdminGuard, ServiceCredentialGuard), from the app's config.
// A thunk for apps whose module is still built before their config is parsed.
@Global()
@Module({})
export class ServiceCallersModule {
  static forRoot(callers: ServiceCallers | (() => ServiceCallers)): DynamicModule {
    return {
      module: ServiceCallersModule,
      providers: [
        typeof callers === 'function'
          ? { provide: SERVICE_CALLERS, useFactory: callers }
          : { provide: SERVICE_CALLERS, useValue: callers },
      ],
      exports: [SERVICE_CALLERS],
    };
  }
}
