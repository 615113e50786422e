import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

import { CurrentMerchant, MerchantAuthGuard } from '@onramp/auth';
import {
  IdempotentInput,
  Page,
  Paginated,
  PaginationQuery,
  StoredReply,
  StoredResponseReply,
  uuidParam,
} from '@onramp/http';
import { ApiMerchantAuth } from '@onramp/openapi';

import { kycUserErased } from '../kyc-problem-types';
import { AddKycUserUseCase } from './add-kyc-user.usecase';
import { AddKycUserDto } from './dto/add-kyc-user.dto';
import { KycUserResponse } from './kyc-user.presenter';
import { ApiAddKycUser, ApiGetKycUser, ApiListKycUsers } from './kyc-users.openapi';
import { KycUsersQueries } from './kyc-users.queries';

@Controller('kyc')
@UseGuards(MerchantAuthGuard)
@ApiTags('KYC')
@ApiMerchantAuth()
export class KycUsersController {
  constructor(
    private readonly addKycUser: AddKycUserUseCase,
    private readonly queries: KycUsersQueries,
  ) {}

  @Post('add')
  @HttpCode(201)
  @ApiAddKycUser()
  async add(
    @CurrentMerchant() merchantId: string,
    @Body() input: AddKycUserDto,
    @IdempotentInput() request: IdempotentInput,
    @StoredReply() reply: StoredResponseReply,
  ): Promise<unknown> {
    const response = await this.addKycUser.execute({ merchantId, input, ...request });
    // the replay of a registration whose personal data an operator has since erased
    if (response.status === 410) throw kycUserErased();
    return reply(response);
  }

  // Declared before ':uuid' so "get-all" is never read as a uuid.
  @Get('get-all')
  @Paginated()
  @ApiListKycUsers()
  list(
    @CurrentMerchant() merchantId: string,
    @Query() page: PaginationQuery,
  ): Promise<Page<KycUserResponse>> {
    return this.queries.list(merchantId, page);
  }

  @Get(':uuid')
  @ApiGetKycUser()
  get(
    @CurrentMerchant() merchantId: string,
    @Param('uuid', uuidParam('uuid')) uuid: string,
  ): Promise<KycUserResponse> {
    return this.queries.getOne(merchantId, uuid);
  }
}
