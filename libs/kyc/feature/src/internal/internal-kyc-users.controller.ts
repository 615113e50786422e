import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';

import { ServiceOnly } from '@onramp/auth';
import { KycStatus } from '@onramp/contracts';
import { badRequest, notFound } from '@onramp/http';

import { KycUsersQueries } from '../kyc-users/kyc-users.queries';

const uuidPipe = (name: string) =>
  new ParseUUIDPipe({
    exceptionFactory: () =>
      badRequest(`${name} must be a UUID`, [{ field: name, message: `${name} must be a UUID` }]),
  });

// Orders' read-your-write check for a user registered a moment ago (docs/architecture.md, internal
// HTTP calls). Service-to-service only: the gateway never routes /internal, and a service credential
// is required whatever the network (loopback binding is not what keeps it private).
// Answers the status alone, never PII.
@ServiceOnly()
@Controller('internal/kyc-users')
export class InternalKycUsersController {
  constructor(private readonly queries: KycUsersQueries) {}

  @Get(':uuid')
  async status(
    @Param('uuid', uuidPipe('uuid')) uuid: string,
    @Query('merchantId', uuidPipe('merchantId')) merchantId: string,
  ): Promise<{ uuid: string; status: KycStatus; statusVersion: number }> {
    const user = await this.queries.findOne(merchantId, uuid);
    if (!user) throw notFound('KYC user not found');
    return { uuid: user.uuid, status: user.status, statusVersion: user.statusVersion };
  }
}
