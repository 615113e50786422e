import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';

import { AdminGuard, CurrentAdminActor } from '@onramp/auth';
import { AdminActor } from '@onramp/persistence';
import { uuidParam } from '@onramp/http';

import { DecideKycUserUseCase, KycDecisionResult } from './decide-kyc-user.usecase';
import { EraseKycUserUseCase, KycErasureResult } from './erase-kyc-user.usecase';
import { KycDecisionDto } from './kyc-decision.dto';

// Operators only, through the gateway's admin listener (AdminGuard).
@Controller('admin/kyc-users')
@UseGuards(AdminGuard)
export class AdminKycUsersController {
  constructor(
    private readonly decide: DecideKycUserUseCase,
    private readonly erase: EraseKycUserUseCase,
  ) {}

  @Post(':uuid/decision')
  @HttpCode(200)
  async decision(
    @Param('uuid', uuidParam('uuid')) uuid: string,
    @Body() input: KycDecisionDto,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<KycDecisionResult> {
    return this.decide.execute({
      userUuid: uuid.toLowerCase(),
      status: input.status,
      reason: input.reason.trim(),
      decidedBy: actor.operator, // as the gateway authenticated it
      actor,
    });
  }

  // Crypto-shreds the user's personal data, keeps the AML record (docs/security.md, erasure).
  @Post(':uuid/erase')
  @HttpCode(200)
  eraseUser(
    @Param('uuid', uuidParam('uuid')) uuid: string,
    @CurrentAdminActor() actor: AdminActor,
  ): Promise<KycErasureResult> {
    return this.erase.execute(uuid.toLowerCase(), actor);
  }
}
