import { Controller, Get, Header } from '@nestjs/common';

import { metrics } from './metrics-registry';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus-format';

// GET /metrics on a service's own port (never routed by the gateway), for Prometheus.
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('Content-Type', PROMETHEUS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  render(): Promise<string> {
    return metrics.render();
  }
}
