import { Controller, Get, HttpCode, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { MessagingLifecycle } from '@onramp/messaging';

import { ProblemException } from './problem.exception';

// Liveness answers while the process runs; readiness also needs the database and the consumer group.
@Controller('health')
export class HealthController {
  constructor(
    @Optional() private readonly dataSource?: DataSource,
    @Optional() private readonly messaging?: MessagingLifecycle,
  ) {}

  @Get()
  @HttpCode(200)
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(): Promise<{ status: string }> {
    try {
      if (this.dataSource) await this.dataSource.query('SELECT 1');
    } catch {
      throw new ProblemException(503, 'database unavailable');
    }
    if (this.messaging && !this.messaging.isReady())
      throw new ProblemException(503, 'event consumer not ready');
    return { status: 'ready' };
  }
}
