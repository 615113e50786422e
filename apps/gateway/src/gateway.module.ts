import { Module } from '@nestjs/common';

import { HealthController } from '@onramp/http';

// The gateway's own endpoints: GET /health (and /health/ready) on every listener. Everything else
// is proxied (see routes.ts); there is no database and no event transport here.
@Module({ controllers: [HealthController] })
export class GatewayModule {}
