import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ProblemException } from '@onramp/http';

import { OrdersProblemTypes } from '../problem-types';
import { KycProjectionRepository, KycUserFacts } from './kyc-projection.repository';
import { KycServiceClient } from './kyc-service.client';

const unknownUser = () =>
  new ProblemException(422, 'kycUserUuid does not identify a KYC user registered by this merchant', {
    type: OrdersProblemTypes.KycUserUnknown,
    errors: [{ field: 'kycUserUuid', message: 'unknown KYC user' }],
  });

const notApproved = (status: string) =>
  new ProblemException(422, `the KYC user is not approved (status ${status})`, {
    type: OrdersProblemTypes.KycNotApproved,
    errors: [{ field: 'kycUserUuid', message: `KYC status is ${status}, orders need APPROVED` }],
  });

// An order needs a user of the calling merchant whose KYC is APPROVED (422 otherwise). Another
// merchant's user is reported exactly like an unknown one.
@Injectable()
export class KycEligibility {
  constructor(
    private readonly dataSource: DataSource,
    private readonly kycService: KycServiceClient,
    private readonly projection: KycProjectionRepository,
  ) {}

  async assertApproved(merchantId: string, kycUserUuid: string): Promise<void> {
    const user = await this.lookup(merchantId, kycUserUuid);
    if (!user || user.merchantId !== merchantId) throw unknownUser();
    if (user.status !== 'APPROVED') throw notApproved(user.status);
  }

  private async lookup(merchantId: string, uuid: string): Promise<KycUserFacts | null> {
    const known = await this.projection.find(this.dataSource.manager, uuid);
    if (known) return known;
    const remote = await this.kycService.findUser(merchantId, uuid);
    if (!remote) return null;
    const facts = { uuid, merchantId, status: remote.status, statusVersion: remote.statusVersion };
    await this.projection.upsert(this.dataSource.manager, facts);
    return facts;
  }
}
