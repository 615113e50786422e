import { Controller, Get, Header, Headers, Inject, Logger, UnauthorizedException } from '@nestjs/common';

import { mayReadMetrics, METRICS_ACCESS, METRICS_REFUSED, MetricsAccess } from './metrics-access';
import { metrics } from './metrics-registry';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-format';

// GET /metrics on a service's own port (never routed by the gateway), for Prometheus; behind
// METRICS_TOKEN (see metrics-access.ts); the access comes from MetricsModule.forRoot.
@Controller('metrics')
export class MetricsController {
  constructor(@Inject(METRICS_ACCESS) private readonly access: MetricsAccess) {
    if (!this.access.token && !this.access.open)
      new Logger(MetricsController.name).warn('METRICS_TOKEN is not set: /metrics answers 401 to everyone');
  }

  @Get()
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  render(@Headers('authorization') authorization: string | undefined): Promise<string> {
    if (!mayReadMetrics(this.access, authorization)) throw new UnauthorizedException(METRICS_REFUSED);
    return metrics.render();
  }
}
