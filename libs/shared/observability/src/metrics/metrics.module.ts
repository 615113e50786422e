import { DynamicModule, Global, Module } from '@nestjs/common';

import { METRICS_ACCESS, MetricsAccess } from './metrics-access';

// Who may read the app's /metrics (MetricsController), from the app's config.
@Global()
@Module({})
export class MetricsModule {
  static forRoot(access: MetricsAccess): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: METRICS_ACCESS, useValue: access }],
      exports: [METRICS_ACCESS],
    };
  }
}
