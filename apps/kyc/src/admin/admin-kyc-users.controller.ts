import { Body, Controller, Headers, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';

import { AdminKeyGuard } from '@onramp/auth';
import { badRequest } from '@onramp/http';

import { DecideKycUserUseCase, KycDecisionResult } from './decide-kyc-user.usecase';
import { KycDecisionDto } from './kyc-decision.dto';

const uuidParam = new ParseUUIDPipe({
  exceptionFactory: () =>
    badRequest('uuid must be a UUID', [{ field: 'uuid', message: 'uuid must be a UUID' }]),
});

// Who decided: the admin key is shared by operators, so they name themselves in X-Operator
// (the CLI sends the local user name); "admin" when absent.
function operatorOf(header: string | undefined): string {
  const name = (header ?? '').trim().slice(0, 100);
  return /^[\w.@ -]+$/.test(name) ? name : 'admin';
}

// Operators only (the gateway serves /admin/* on its loopback listener).
@Controller('admin/kyc-users')
@UseGuards(AdminKeyGuard)
export class AdminKycUsersController {
  constructor(private readonly decide: DecideKycUserUseCase) {}

  @Post(':uuid/decision')
  @HttpCode(200)
  async decision(
    @Param('uuid', uuidParam) uuid: string,
    @Body() input: KycDecisionDto,
    @Headers('x-operator') operator: string | undefined,
  ): Promise<KycDecisionResult> {
    return this.decide.execute({
      userUuid: uuid.toLowerCase(),
      status: input.status,
      reason: input.reason.trim(),
      decidedBy: operatorOf(operator),
    });
  }
}
