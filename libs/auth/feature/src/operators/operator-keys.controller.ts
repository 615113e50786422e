import { Controller, Get, Res, UseGuards } from '@nestjs/common';
import { FastifyReply } from 'fastify';

import { GatewayCredentialGuard } from '@onramp/auth';

import { OperatorKey, OperatorsService } from './operators.service';

// The gateway's admin listener authenticates operators against this list (it refreshes it every few
// seconds): the SHA-256 of each live key, which opens nothing by itself. The gateway's credential only.
@Controller('internal/operator-keys')
@UseGuards(GatewayCredentialGuard)
export class OperatorKeysController {
  constructor(private readonly operators: OperatorsService) {}

  @Get()
  async list(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ operators: OperatorKey[] }> {
    void reply.header('Cache-Control', 'no-store');
    return { operators: await this.operators.liveKeys() };
  }
}
