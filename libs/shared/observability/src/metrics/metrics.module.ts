import { DynamicModule, Global, Module } from '@nestjs/common';

import { METRICS_ACCESS, MetricsAccess } from './metrics-access';

// Who may read the app's /metrics (MetricsController), from the app's config. A thunk for apps
// whose module is still built before their config is parsed.
@Global()
@Module({})
export class MetricsModule {
  static forRoot(access: MetricsAccess | (() => MetricsAccess)): DynamicModule {
    return {
      module: MetricsModule,
      providers: [
        typeof access === 'function'
          ? { provide: METRICS_ACCESS, useFactory: access }
          : { provide: METRICS_ACCESS, useValue: access },
      ],
      exports: [METRICS_ACCESS],
    };
  }
}
