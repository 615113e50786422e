import { Body, Controller, Get, HttpCode, Param, Post, Res, UseGuards } from '@nestjs/common';
import { FastifyReply } from 'fastify';

import { AdminGuard, CurrentAdminActor, OPERATOR_ID_PATTERN } from '@onramp/auth';
import { badRequest } from '@onramp/http';
import { AdminActor } from '@onramp/persistence';

import { CreatedOperator, OperatorsService, OperatorSummary } from '../operators/operators.service';
import { CreateOperatorDto } from './create-operator.dto';

// Named operators of the admin API (the gateway's `operators` scope for changes). Whoever holds
// that scope can create an operator with any scope: it is the root of the admin API.
@Controller('admin/operators')
@UseGuards(AdminGuard)
export class AdminOperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Post()
  @HttpCode(201)
  create(
    @Body() dto: CreateOperatorDto,
    @CurrentAdminActor() actor: AdminActor,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CreatedOperator> {
    void reply.header('Cache-Control', 'no-store');
    return this.operators.create({ id: dto.id, scopes: dto.scopes }, actor);
  }

  @Get()
  list(): Promise<OperatorSummary[]> {
    return this.operators.list();
  }

  @Post(':id/revoke')
  @HttpCode(200)
  revoke(@Param('id') id: string, @CurrentAdminActor() actor: AdminActor): Promise<OperatorSummary> {
    if (!OPERATOR_ID_PATTERN.test(id)) throw badRequest('id is not an operator id');
    return this.operators.revoke(id, actor);
  }
}
