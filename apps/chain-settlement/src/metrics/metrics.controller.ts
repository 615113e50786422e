import { Controller, Get, Header } from '@nestjs/common';

import { SettlementMetrics } from './settlement-metrics.service';

// Scraped by Prometheus on the service's own port (not routed by the gateway).
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: SettlementMetrics) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  render(): Promise<string> {
    return this.metrics.render();
  }
}
