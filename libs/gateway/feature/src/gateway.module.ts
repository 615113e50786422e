import { DynamicModule, Module } from '@nestjs/common';

import { HealthController } from '@onramp/http';

import { GATEWAY_CONFIG, GatewayConfig } from './config';

// The gateway's own endpoints: GET /health (and /health/ready) on every listener. Everything else
// is proxied (see routes.ts), registered on each listener's Fastify instance by createListener;
// there is no database and no event transport here. Built from a parsed config like every service's
// module, so nothing here reads the environment.
@Module({})
export class GatewayModule {
  static forRoot(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [HealthController],
      providers: [{ provide: GATEWAY_CONFIG, useValue: config }],
    };
  }
}
