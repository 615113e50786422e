import { DynamicModule, Type } from '@nestjs/common';

import { MerchantAuthModule, ServiceCallersModule } from '@onramp/auth';
import { HealthController } from '@onramp/http';
import { MessagingModule } from '@onramp/messaging';
import { MetricsController, MetricsModule } from '@onramp/observability';
import { ServiceDataSourceOptions, typeOrmRootFor } from '@onramp/persistence';

import { ServiceRuntime } from './service-runtime';

// What every service with a database imports and serves before its own controllers: its DataSource
// (migrated or waited for, per runtime.database), the event transport when its runtime has one
// (`messagingService`, its consumer group and client id, is then required), merchant tokens and
// service callers when it takes them, metrics access; GET /health and GET /metrics.
export function serviceInfrastructure(
  databaseUrl: string,
  database: Omit<ServiceDataSourceOptions, 'url'>, // the service's SERVICE_DATABASE
  runtime: Partial<ServiceRuntime> & Pick<ServiceRuntime, 'database' | 'metrics'>,
  messagingService?: string,
): { imports: DynamicModule[]; controllers: Type[] } {
  const imports = [typeOrmRootFor({ url: databaseUrl, ...database, ...runtime.database })];
  if (runtime.transport) {
    if (!messagingService) throw new Error(`${database.schema}: an event transport needs messagingService`);
    imports.push(
      MessagingModule.forService({
        schema: database.schema,
        service: messagingService,
        transport: runtime.transport,
      }),
    );
  }
  if (runtime.merchantAuth) imports.push(MerchantAuthModule.forRoot(runtime.merchantAuth));
  if (runtime.callers) imports.push(ServiceCallersModule.forRoot(runtime.callers));
  imports.push(MetricsModule.forRoot(runtime.metrics));
  return { imports, controllers: [HealthController, MetricsController] };
}
